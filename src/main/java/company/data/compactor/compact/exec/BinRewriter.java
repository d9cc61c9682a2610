package company.data.compactor.compact.exec;

import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Rewrites one bin of local Parquet files. {@link DuckDbRewriter} is the implementation; the seam
 * lets tests break the writer and prove that verification refuses what it wrote.
 */
interface BinRewriter extends AutoCloseable {

  /** Opens a rewriter whose spill and home directories live under {@code scratch}. */
  @FunctionalInterface
  interface Factory {
    BinRewriter open(RewriteSettings settings, Path scratch) throws SQLException, IOException;
  }

  /**
   * Writes the rows of {@code inputs} that readers see (without the rows {@code deleted} names)
   * into {@code outDir}, split at {@code targetFileSizeBytes}.
   *
   * @param zOrderColumns columns to cluster rows by ({@link
   *     company.data.compactor.compact.ZOrderKey}); empty keeps input order
   */
  List<DuckDbRewriter.Written> rewrite(
      TableLocation table,
      TableSchema schema,
      Map<String, String> properties,
      List<Path> inputs,
      DeletedRows deleted,
      Path outDir,
      long targetFileSizeBytes,
      String compression,
      List<String> zOrderColumns)
      throws SQLException, IOException;

  @Override
  void close() throws SQLException;
}
