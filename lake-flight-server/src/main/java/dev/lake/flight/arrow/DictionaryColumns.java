package dev.lake.flight.arrow;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Dictionary-encoded input columns (a pandas {@code category} is {@code dictionary<values=large_string,
 * indices=int8>}) are stored as their values: the ingest schema names the value type, and each batch's indices are
 * looked up in the dictionary the stream carries at that batch (a stream may replace its dictionaries). Lance is never
 * handed a dictionary type (docs/api.md, "Writes: bulk ingest"). A dictionary inside a nested type is refused.
 */
public final class DictionaryColumns {
  private DictionaryColumns() {}

  /**
   * {@code schema} (in Arrow Java's in-memory form: a dictionary-encoded field has its index type) with every
   * top-level dictionary-encoded field replaced by a field of its dictionary's value type.
   */
  public static Schema decoded(Schema schema, DictionaryProvider dictionaries) {
    List<Field> fields = new ArrayList<>();
    for (Field field : schema.getFields()) {
      checkNoNestedDictionary(field.getName(), field.getChildren());
      if (field.getDictionary() == null) {
        fields.add(field);
      } else {
        Field values = dictionary(field, dictionaries).getVector().getField();
        fields.add(new Field(field.getName(), new FieldType(field.isNullable(), values.getType(), null,
            field.getMetadata()), values.getChildren()));
      }
    }
    return new Schema(fields, schema.getCustomMetadata());
  }

  /** Whether any top-level field of {@code schema} is dictionary-encoded. */
  public static boolean any(Schema schema) {
    return schema.getFields().stream().anyMatch(f -> f.getDictionary() != null);
  }

  private static Dictionary dictionary(Field field, DictionaryProvider dictionaries) {
    long id = field.getDictionary().getId();
    Dictionary dictionary = dictionaries == null ? null : dictionaries.lookup(id);
    if (dictionary == null) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "column '" + field.getName()
          + "' is dictionary-encoded but the stream sent no dictionary (id " + id + ") for it");
    }
    return dictionary;
  }

  /** Decodes one batch of {@code indices} into {@code target} (a vector of the value type). */
  public static void decodeInto(FieldVector indices, DictionaryProvider dictionaries, FieldVector target) {
    Dictionary dictionary = dictionary(indices.getField(), dictionaries);
    try (ValueVector values = DictionaryEncoder.decode(indices, dictionary, target.getAllocator())) {
      ((FieldVector) values).makeTransferPair(target).transfer();
    } catch (IllegalArgumentException e) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "column '" + indices.getField().getName()
          + "' holds a dictionary index outside its dictionary");
    }
  }

  private static void checkNoNestedDictionary(String column, List<Field> children) {
    for (Field child : children) {
      if (child.getDictionary() != null) {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT, "column '" + column
            + "' has a dictionary-encoded field inside a nested type; lake decodes only top-level dictionary"
            + " columns: decode it first (pyarrow: pc.dictionary_decode / .cast to the value type)");
      }
      checkNoNestedDictionary(column, child.getChildren());
    }
  }
}
