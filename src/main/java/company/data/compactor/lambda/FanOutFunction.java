package company.data.compactor.lambda;

import io.quarkus.funqy.Funq;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The task function of the fan-out state machine (Funqy {@code fanout}; deployed with {@code
 * QUARKUS_FUNQY_EXPORT=fanout}): Plan, each partition item of the Distributed Map, and Finalize,
 * chosen by the event's {@code task} (see {@link FanOutTasks}). EMF metric lines go to standard
 * output, where CloudWatch Logs extracts them.
 */
public class FanOutFunction {

  @ConfigProperty(name = "compactor.work-dir")
  String workDir;

  @Inject Config config;

  /** Runs one state machine task. */
  @Funq("fanout")
  public Map<String, Object> fanout(Map<String, Object> event) {
    return new FanOutTasks(
            new LambdaEnvironment(
                config, new Secrets(new LambdaEnvironment(config), Clock.systemUTC())),
            Path.of(workDir).toAbsolutePath(),
            Clock.systemUTC(),
            System.out::println)
        .handle(event == null ? Map.of() : event);
  }
}
