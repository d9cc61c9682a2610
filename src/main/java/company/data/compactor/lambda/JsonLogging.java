package company.data.compactor.lambda;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.logging.Handler;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logmanager.ExtHandler;

/**
 * Structured JSON logs in Lambda: when {@code COMPACTOR_LOG_FORMAT} is {@code json}, every console
 * handler of the root logger formats with {@link JsonLogFormatter} from startup on. Unset (tests,
 * local invokes) the text format stays.
 */
@ApplicationScoped
public class JsonLogging {

  @ConfigProperty(name = "COMPACTOR_LOG_FORMAT", defaultValue = "text")
  String format;

  void onStart(@Observes StartupEvent event) {
    if ("json".equalsIgnoreCase(format.strip())) {
      install(Logger.getLogger(""));
    }
  }

  /** Sets the JSON formatter on every handler under {@code logger}, nested ones included. */
  static int install(Logger logger) {
    int installed = 0;
    for (Handler handler : logger.getHandlers()) {
      installed += install(handler);
    }
    return installed;
  }

  private static int install(Handler handler) {
    if (handler instanceof ExtHandler ext && ext.getHandlers().length > 0) {
      int installed = 0;
      for (Handler child : ext.getHandlers()) {
        installed += install(child);
      }
      return installed;
    }
    handler.setFormatter(new JsonLogFormatter());
    return 1;
  }
}
