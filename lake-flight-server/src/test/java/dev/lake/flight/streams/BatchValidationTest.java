package dev.lake.flight.streams;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.error.LakeException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The checks an incoming batch passes before Lance's native code reads it, on real Arrow vectors whose buffers are
 * written byte by byte the way a hostile client can send them (Arrow's setters would refuse most of these values).
 */
class BatchValidationTest {
  private final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void close() {
    allocator.close();
  }

  @Test
  void decimalsOutsideTheirPrecisionAreRefusedAndEdgeValuesPass() {
    // DECIMAL(5, 2): 999.99 and -999.99 fit, 1000.00 and -1000.00 do not
    assertThatCode(() -> decimals(5, 2, BigInteger.valueOf(99_999), BigInteger.valueOf(-99_999), BigInteger.ZERO))
        .doesNotThrowAnyException();
    assertRefused(() -> decimals(5, 2, BigInteger.valueOf(100_000)), "does not fit DECIMAL(5, 2)");
    assertRefused(() -> decimals(5, 2, BigInteger.valueOf(-100_000)), "does not fit DECIMAL(5, 2)");
    // values beyond a long: 10^20 fits DECIMAL(21, 0), not DECIMAL(20, 0); Long.MIN_VALUE has 19 digits
    BigInteger big = BigInteger.TEN.pow(20);
    assertThatCode(() -> decimals(21, 0, big, big.negate())).doesNotThrowAnyException();
    assertRefused(() -> decimals(20, 0, big), "does not fit DECIMAL(20, 0)");
    assertRefused(() -> decimals(20, 0, big.negate()), "does not fit DECIMAL(20, 0)");
    BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
    assertThatCode(() -> decimals(19, 0, min)).doesNotThrowAnyException();
    assertRefused(() -> decimals(18, 0, min), "does not fit DECIMAL(18, 0)");
    BigInteger tenTo18 = BigInteger.TEN.pow(18);
    assertThatCode(() -> decimals(19, 0, tenTo18, tenTo18.negate())).doesNotThrowAnyException();
    assertRefused(() -> decimals(18, 0, tenTo18), "does not fit DECIMAL(18, 0)");
    // a NULL slot may hold any bytes
    assertThatCode(() -> decimalsWithNullGarbage()).doesNotThrowAnyException();
  }

  @Test
  void decimalNullsAndValuesAreFoundPastTheFirstBytesOfTheirBuffers() {
    // 20 rows: NULLs at 9 and 13 hold values beyond the precision (any bytes may sit under a NULL); row 17 does not fit
    assertThatCode(() -> decimalRows(20, -1)).doesNotThrowAnyException();
    assertRefused(() -> decimalRows(20, 17), "the value at row 17 does not fit DECIMAL(5, 2)");
    assertRefused(() -> decimalRows(20, 8), "the value at row 8 does not fit DECIMAL(5, 2)");
  }

  @Test
  void utf8IsCheckedPastTheAsciiWordsOfALongValue() {
    byte[] ascii = "0123456789abcdefghij".getBytes(StandardCharsets.UTF_8);
    byte[] good = concat(ascii, "é€𝄞".getBytes(StandardCharsets.UTF_8), ascii);
    assertThatCode(() -> strings(new int[] {0, good.length, good.length}, good)).doesNotThrowAnyException();
    byte[] bad = concat(ascii, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, ascii); // a surrogate, U+D800
    assertRefused(() -> strings(new int[] {0, bad.length, bad.length}, bad), "not UTF-8 at byte 20");
    byte[] truncated = concat(ascii, new byte[] {(byte) 0xe2, (byte) 0x82});
    assertRefused(() -> strings(new int[] {0, truncated.length, truncated.length}, truncated),
        "truncated UTF-8 sequence at byte 20");
  }

  @Test
  void stringValuesMustEachBeUtf8EvenWhenTheirBytesTogetherAre() {
    byte[] e = "é".getBytes(StandardCharsets.UTF_8); // C3 A9
    assertThatCode(() -> strings(new int[] {0, 2, 2}, e)).doesNotThrowAnyException();
    // row 0 holds C3, row 1 holds A9: the data buffer reads "é", neither value is UTF-8
    assertRefused(() -> strings(new int[] {0, 1, 2}, e), "starts inside a UTF-8 sequence");
    assertRefused(() -> strings(new int[] {0, 3, 2}, e), "offsets");
    assertRefused(() -> strings(new int[] {0, 1, 1 << 20}, e), "data buffer");
    assertRefused(() -> strings(new int[] {-1, 1, 2}, e), "offsets");
    assertRefused(() -> strings(new int[] {0, 1, 2}, new byte[] {'a', (byte) 0xff}), "not UTF-8");
    // a value starting past the first offset is checked from there
    assertThatCode(() -> strings(new int[] {1, 1, 3}, new byte[] {(byte) 0xff, 'o', 'k'})).doesNotThrowAnyException();
  }

  @Test
  void largeStringsAndBinaryAreCheckedTheSameWay() {
    assertRefused(() -> twoValues(ArrowType.LargeUtf8.INSTANCE, false), "starts inside a UTF-8 sequence");
    // binary holds any bytes, but its offsets are checked
    assertThatCode(() -> twoValues(ArrowType.Binary.INSTANCE, false)).doesNotThrowAnyException();
    assertRefused(() -> twoValues(ArrowType.Binary.INSTANCE, true), "offsets go backwards");
    assertRefused(() -> twoValues(ArrowType.LargeBinary.INSTANCE, true), "offsets go backwards");
  }

  /** Two values, C3 then A9, of {@code type}; {@code backwards}: the middle offset then points past the end. */
  private void twoValues(ArrowType type, boolean backwards) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(Field.nullable("c", type))),
        allocator)) {
      org.apache.arrow.vector.VariableWidthFieldVector v =
          (org.apache.arrow.vector.VariableWidthFieldVector) root.getVector(0);
      v.setSafe(0, new byte[] {(byte) 0xc3});
      v.setSafe(1, new byte[] {(byte) 0xa9});
      root.setRowCount(2);
      if (backwards) {
        org.apache.arrow.memory.ArrowBuf offsets = root.getVector(0).getOffsetBuffer();
        if (type instanceof ArrowType.LargeBinary) {
          offsets.setLong(8, 2);
          offsets.setLong(16, 1);
        } else {
          offsets.setInt(4, 2);
          offsets.setInt(8, 1);
        }
      }
      BatchValidation.check(root, 1);
    }
  }

  private void decimals(int precision, int scale, BigInteger... unscaled) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
        Field.nullable("d", new ArrowType.Decimal(precision, scale, 128)))), allocator)) {
      DecimalVector d = (DecimalVector) root.getVector(0);
      d.allocateNew(unscaled.length);
      for (int i = 0; i < unscaled.length; i++) {
        // written raw, as a client's buffer arrives: DecimalVector.set would refuse a value beyond the precision
        d.setIndexDefined(i);
        writeUnscaled(d, i, unscaled[i]);
      }
      root.setRowCount(unscaled.length);
      BatchValidation.check(root, 1);
    }
  }

  /** {@code rows} DECIMAL(5, 2) values, NULL at rows 9 and 13 over garbage; row {@code tooBig} (if any) is 1000.00. */
  private void decimalRows(int rows, int tooBig) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
        Field.nullable("d", new ArrowType.Decimal(5, 2, 128)))), allocator)) {
      DecimalVector d = (DecimalVector) root.getVector(0);
      d.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        d.setIndexDefined(i);
        writeUnscaled(d, i, BigInteger.valueOf(i == tooBig ? 100_000 : -99_999 + i));
      }
      for (int i : new int[] {9, 13}) {
        writeUnscaled(d, i, BigInteger.TEN.pow(30));
        d.setNull(i);
      }
      root.setRowCount(rows);
      BatchValidation.check(root, 1);
    }
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private void decimalsWithNullGarbage() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
        Field.nullable("d", new ArrowType.Decimal(5, 2, 128)))), allocator)) {
      DecimalVector d = (DecimalVector) root.getVector(0);
      d.allocateNew(2);
      d.set(0, new BigDecimal("1.00"));
      writeUnscaled(d, 1, BigInteger.TEN.pow(30));
      d.setNull(1);
      root.setRowCount(2);
      BatchValidation.check(root, 1);
    }
  }

  private static void writeUnscaled(DecimalVector d, int index, BigInteger value) {
    byte[] bigEndian = value.toByteArray();
    byte[] little = new byte[16];
    byte fill = value.signum() < 0 ? (byte) 0xff : 0;
    java.util.Arrays.fill(little, fill);
    for (int k = 0; k < bigEndian.length; k++) {
      little[k] = bigEndian[bigEndian.length - 1 - k];
    }
    d.getDataBuffer().setBytes((long) index * 16, little);
  }

  /** Two string rows over {@code data} with the three given offsets. */
  private void strings(int[] offsets, byte[] data) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
        Field.nullable("s", ArrowType.Utf8.INSTANCE))), allocator)) {
      VarCharVector s = (VarCharVector) root.getVector(0);
      s.allocateNew(Math.max(16, data.length), 2);
      s.getDataBuffer().setBytes(0, data);
      for (int i = 0; i < offsets.length; i++) {
        s.getOffsetBuffer().setInt(i * 4L, offsets[i]);
      }
      s.setIndexDefined(0);
      s.setIndexDefined(1);
      s.setLastSet(1);
      s.setValueCount(2);
      root.setRowCount(2);
      BatchValidation.check(root, 1);
    }
  }

  private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
    assertThatThrownBy(call).isInstanceOf(LakeException.class).hasMessageContaining(message)
        .hasMessageContaining("nothing was written");
  }
}
