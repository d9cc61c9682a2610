package company.data.compactor.fanout;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps fan-out plans under their run id: {@code <base>/<run id>/plan.json} (the whole plan) and
 * {@code <base>/<run id>/items.json} (a JSON array of {@code {"item": n, "partition": label}}, what
 * the Distributed Map's {@code ItemReader} reads from S3). A plan is written once ({@code
 * If-None-Match: *} on S3): a second Plan task of the same run id is refused instead of replacing
 * the plan workers may already be reading.
 */
public final class PlanStore {

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The plan's file name under the run's directory. */
  public static final String PLAN_FILE = "plan.json";

  /** The items' file name under the run's directory. */
  public static final String ITEMS_FILE = "items.json";

  private final Storage storage;
  private final TableLocation base;

  /** Plans go under {@code base} (a local path or an {@code s3://} prefix) on {@code storage}. */
  public PlanStore(Storage storage, TableLocation base) {
    this.storage = storage;
    this.base = base;
  }

  /** Where {@code runId}'s plan is. */
  public String planPath(String runId) {
    return base.child(runId + "/" + PLAN_FILE);
  }

  /** Where {@code runId}'s items are. */
  public String itemsPath(String runId) {
    return base.child(runId + "/" + ITEMS_FILE);
  }

  /**
   * Stores {@code plan}, items first (the plan's presence means the run was planned completely).
   *
   * @throws company.data.compactor.error.CompactorException REFUSED when the run id already has a
   *     plan; OPERATION_FAILED when storage fails
   */
  public void save(FanOutPlan plan) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (FanOutItem item : plan.items()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("item", item.index());
      entry.put("partition", item.partition());
      items.add(entry);
    }
    try {
      storage.makeDirectories(base.child(plan.runId()));
      storage.putIfAbsent(itemsPath(plan.runId()), JSON.writeValueAsBytes(items));
      if (!storage.putIfAbsent(planPath(plan.runId()), JSON.writeValueAsBytes(plan))) {
        throw Errors.refused(
            "store the plan of run " + plan.runId(),
            "a plan for that run id is already at "
                + planPath(plan.runId())
                + "; each run id is planned once. Start a new execution for a new run.");
      }
    } catch (IOException e) {
      throw Errors.operationFailed("storing the plan of run " + plan.runId() + " under " + base, e);
    }
  }

  /**
   * The plan of {@code runId}.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when it cannot be read
   *     (missing, unreadable, not a plan)
   */
  public FanOutPlan load(String runId) {
    String path = planPath(runId);
    try (InputStream in = storage.openFrom(path, 0)) {
      return JSON.readValue(in, FanOutPlan.class);
    } catch (IOException e) {
      throw Errors.operationFailed("reading the plan of run " + runId + " at " + path, e);
    }
  }
}
