package company.data.compactor.lambda;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * The functions' settings as the environment map the wiring expects. Names are looked up in
 * MicroProfile Config, which reads the process environment (what Lambda and the SAM template set)
 * and, in tests, the profile's overrides; a variable the config does not know is absent.
 */
final class LambdaEnvironment extends AbstractMap<String, String> {

  private final Config config;
  private final Secrets secrets;

  /** Settings from config alone. */
  LambdaEnvironment(Config config) {
    this(config, null);
  }

  /** Settings from config, with the secret names resolved through {@code secrets}. */
  LambdaEnvironment(Config config, Secrets secrets) {
    this.config = config;
    this.secrets = secrets;
  }

  @Override
  public String get(Object name) {
    if (!(name instanceof String key) || key.isEmpty()) {
      return null;
    }
    if (secrets != null
        && (key.equals(Secrets.SLACK_WEBHOOK_URL) || key.equals(Secrets.WEBHOOK_KEY))) {
      return secrets.get(key).orElse(null);
    }
    Optional<String> value = config.getOptionalValue(key, String.class);
    return value.orElse(null);
  }

  @Override
  public boolean containsKey(Object name) {
    return get(name) != null;
  }

  @Override
  public String getOrDefault(Object name, String fallback) {
    String value = get(name);
    return value == null ? fallback : value;
  }

  /** The process environment; lookups by name also see config overrides. */
  @Override
  public Set<Entry<String, String>> entrySet() {
    return Map.copyOf(System.getenv()).entrySet();
  }
}
