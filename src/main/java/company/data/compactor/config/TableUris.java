package company.data.compactor.config;

import company.data.compactor.model.TableLocation;
import java.nio.file.Path;

/** Resolution of the {@code table_uri} input against a working directory. */
public final class TableUris {

  private TableUris() {}

  /** Whether {@code raw} names a location the compactor can reach. */
  static boolean isSupported(String raw) {
    try {
      TableLocation.parse(raw, Path.of("/"));
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * The location of a validated request's table; a relative path resolves against {@code workDir}.
   */
  public static TableLocation resolve(MaintenanceRequest request, Path workDir) {
    return TableLocation.parse(request.tableUri(), workDir);
  }
}
