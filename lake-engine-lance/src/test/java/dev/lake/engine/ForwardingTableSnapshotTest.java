package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ForwardingTableSnapshot} overrides every method of {@link TableSnapshot}, its default methods too: a method
 * added to the interface without a forward here would make every wrapper answer the default instead of the wrapped
 * snapshot's answer (wrappers written by hand did: no indexes, a fragment scan for a take). With a real snapshot
 * behind it, a wrapper answers what the snapshot answers, indexes and takes included.
 */
class ForwardingTableSnapshotTest extends EngineTestSupport {
  @Test
  void everyMethodOfTheInterfaceIsForwarded() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Method method : TableSnapshot.class.getMethods()) {
      if (Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      Method declared;
      try {
        declared = ForwardingTableSnapshot.class.getDeclaredMethod(method.getName(), method.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(method.toString());
        continue;
      }
      assertThat(Modifier.isAbstract(declared.getModifiers())).as("%s is implemented", declared).isFalse();
    }
    assertThat(missing).as("TableSnapshot methods ForwardingTableSnapshot does not override").isEmpty();
  }

  @Test
  void aWrapperAnswersWhatTheSnapshotAnswers() {
    String location = newLocation("t");
    long created = createWithIds(location, 1, 2, 3, 4);
    long version = engine.createIndex(location, created, new IndexSpec("id_idx", "id", IndexKind.BTREE));
    try (TableSnapshot real = engine.open(location, version, allocator);
        TableSnapshot wrapped = new ForwardingTableSnapshot(real) {
          @Override
          public void close() {
            // the real snapshot is closed by this test
          }
        }) {
      assertThat(wrapped.location()).isEqualTo(real.location());
      assertThat(wrapped.version()).isEqualTo(real.version());
      assertThat(wrapped.schema()).isEqualTo(real.schema());
      assertThat(wrapped.countRows()).isEqualTo(4);
      assertThat(wrapped.fragmentIds()).isEqualTo(real.fragmentIds());
      int fragment = real.fragmentIds().get(0);
      assertThat(wrapped.fragmentKey(fragment)).isEqualTo(real.fragmentKey(fragment));
      assertThat(wrapped.fragmentRows(fragment)).isEqualTo(real.fragmentRows(fragment));
      assertThat(real.indexes()).as("the indexed version's indexes").isNotEmpty();
      assertThat(wrapped.indexes()).isEqualTo(real.indexes());
      assertThat(Rows.drain(wrapped.readRows(List.of("id"), 1, 2))).as("a take of rows 1 and 2")
          .isEqualTo(Rows.drain(real.readRows(List.of("id"), 1, 2)));
    }
  }
}
