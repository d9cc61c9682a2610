package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.error.CompactorException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state machine's Plan task is a leased run too: at a path with no table (demo_mode false) it
 * fails TABLE_NOT_FOUND and, like the CLI and the direct Lambda run since a2071d4, writes nothing
 * there.
 */
class FanOutPlanMissingTableTest {

  @TempDir Path work;

  @Test
  void planTask_onAMissingTable_failsTableNotFound_andWritesNothingThere() throws Exception {
    Path missing = work.resolve("mistyped_table");
    Files.createDirectories(missing);
    FanOutTasks tasks = new FanOutTasks(Map.of(), work, Clock.systemUTC(), line -> {});

    assertThatThrownBy(
            () ->
                tasks.handle(
                    Map.of(
                        "task",
                        "plan",
                        "run_id",
                        "fanout-missing",
                        "inputs",
                        Map.of("table_uri", missing.toString(), "demo_mode", false))))
        .isInstanceOfSatisfying(
            CompactorException.class,
            e -> assertThat(e.kind()).isEqualTo(CompactorException.Kind.TABLE_NOT_FOUND));
    List<String> written = new ArrayList<>();
    try (Stream<Path> files = Files.walk(missing)) {
      files
          .filter(Files::isRegularFile)
          .forEach(f -> written.add(missing.relativize(f).toString()));
    }
    assertThat(written).isEmpty();
  }
}
