package company.data.compactor.storage.s3;

import company.data.compactor.storage.PublishOnClose;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link Storage} on Amazon S3 (and S3-compatible stores) through the AWS SDK v2 sync client. Paths
 * are {@code s3://bucket/key}.
 *
 * <ul>
 *   <li>Missing keys raise {@link FileNotFoundException}, as Delta kernel requires.
 *   <li>{@link #putIfAbsent} is a conditional PUT ({@code If-None-Match: *}): S3 answers 412 to the
 *       loser of a race, which is how Delta log commits stay safe next to delta-rs writers. It goes
 *       through its own client that never retries: a retried conditional PUT whose first response
 *       was lost meets its own object and answers 412, so a {@code false} or a failure only means
 *       "read the object to know" (the Delta log committer does).
 *   <li>{@link #create} buffers to a local temporary file (in a locked {@link Scratch} directory of
 *       its own) and uploads on close (one PUT, or a multipart upload above {@value
 *       #MULTIPART_THRESHOLD} bytes); nothing is visible before.
 *   <li>Deletes go in batches of {@value #DELETE_BATCH} keys per request.
 *   <li>Other calls are idempotent; throttling and transient errors are retried with backoff by the
 *       client's retry strategy.
 * </ul>
 */
public final class S3Storage implements Storage {

  private static final System.Logger LOG = System.getLogger(S3Storage.class.getName());

  static final int DELETE_BATCH = 1000;
  // The AWS CLI's defaults: above 16 MB a file goes up in 8 MB parts, several at a time.
  static final long MULTIPART_THRESHOLD = 16L * 1024 * 1024;
  static final long PART_SIZE = 8L * 1024 * 1024;
  static final int PARTS_IN_FLIGHT = 4;

  /** Sends parts; each upload keeps at most {@value #PARTS_IN_FLIGHT} of its own in flight. */
  private static final ExecutorService PART_UPLOADS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "s3-upload-part");
            t.setDaemon(true);
            return t;
          });

  static final int PARALLEL_LISTINGS = 8;

  private final S3Client client;
  private final S3Client conditionalWrites;
  private final Path tempDir;

  /**
   * Storage whose conditional writes go through {@code client} too (tests, tools).
   *
   * @param client the S3 client (this storage does not close it)
   * @param tempDir where uploads are buffered before they are sent
   */
  public S3Storage(S3Client client, Path tempDir) {
    this(client, client, tempDir);
  }

  /**
   * @param client the S3 client for everything but conditional writes (not closed here)
   * @param conditionalWrites the client for {@link #putIfAbsent}, without retries (see {@link
   *     S3Clients#forConditionalWrites}; not closed here)
   * @param tempDir where uploads are buffered before they are sent
   */
  public S3Storage(S3Client client, S3Client conditionalWrites, Path tempDir) {
    this.client = client;
    this.conditionalWrites = conditionalWrites;
    this.tempDir = tempDir;
  }

  /** Bucket and key of an {@code s3://} path. */
  record Location(String bucket, String key) {
    static Location of(String path) {
      String rest;
      if (path.startsWith("s3://")) {
        rest = path.substring(5);
      } else if (path.startsWith("s3a://")) {
        rest = path.substring(6);
      } else {
        throw new IllegalArgumentException("not an s3:// path: " + path);
      }
      int slash = rest.indexOf('/');
      return slash < 0
          ? new Location(rest, "")
          : new Location(rest.substring(0, slash), rest.substring(slash + 1));
    }

    String uri(String key) {
      return "s3://" + bucket + "/" + key;
    }
  }

  @Override
  public List<StoredObject> listFrom(String path) throws IOException {
    Location at = Location.of(path);
    int slash = at.key().lastIndexOf('/');
    String dir = slash < 0 ? "" : at.key().substring(0, slash + 1);
    String from = at.key().substring(dir.length());
    ListObjectsV2Request.Builder request =
        ListObjectsV2Request.builder().bucket(at.bucket()).prefix(dir).delimiter("/");
    if (!from.isEmpty()) {
      // StartAfter is exclusive; a strict prefix of the name sorts before it and after nothing we
      // need.
      request.startAfter(dir + from.substring(0, from.length() - 1));
    }
    List<StoredObject> found = new ArrayList<>();
    for (S3Object object : list(request.build(), at)) {
      String name = object.key().substring(dir.length());
      if (compareUtf8(name, from) >= 0) {
        found.add(toStored(at, object));
      }
    }
    if (found.isEmpty() && isEmptyDirectory(at.bucket(), dir)) {
      throw new FileNotFoundException("No such directory: " + at.uri(dir));
    }
    return found;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Big tables are listed in parallel: the first level under {@code prefix} (partition
   * directories) is listed with a delimiter, then each subdirectory's keys by its own paged
   * listing, {@value #PARALLEL_LISTINGS} at a time.
   */
  @Override
  public List<StoredObject> listRecursively(String prefix) throws IOException {
    Location at = Location.of(prefix);
    String dir = at.key().isEmpty() || at.key().endsWith("/") ? at.key() : at.key() + "/";
    List<StoredObject> found = new ArrayList<>();
    List<String> subdirectories = new ArrayList<>();
    try {
      for (ListObjectsV2Response page :
          client.listObjectsV2Paginator(b -> b.bucket(at.bucket()).prefix(dir).delimiter("/"))) {
        page.contents().forEach(o -> found.add(toStored(at, o)));
        page.commonPrefixes().forEach(p -> subdirectories.add(p.prefix()));
      }
    } catch (SdkException e) {
      throw wrap("listing " + at.uri(dir), e);
    }
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(
            Math.max(1, Math.min(PARALLEL_LISTINGS, subdirectories.size())));
    try {
      List<java.util.concurrent.Future<List<S3Object>>> listings = new ArrayList<>();
      for (String sub : subdirectories) {
        listings.add(
            pool.submit(
                () ->
                    list(
                        ListObjectsV2Request.builder().bucket(at.bucket()).prefix(sub).build(),
                        at)));
      }
      for (var listing : listings) {
        listing.get().forEach(o -> found.add(toStored(at, o)));
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while listing " + prefix, e);
    } finally {
      pool.shutdownNow();
    }
    found.sort(Comparator.comparing(StoredObject::path, S3Storage::compareUtf8));
    return found;
  }

  @Override
  public StoredObject stat(String path) throws IOException {
    Location at = Location.of(path);
    try {
      HeadObjectResponse head = client.headObject(b -> b.bucket(at.bucket()).key(at.key()));
      return new StoredObject(path, head.contentLength(), head.lastModified().toEpochMilli());
    } catch (NoSuchKeyException e) {
      throw notFound(path);
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw notFound(path);
      }
      throw wrap("reading metadata of " + path, e);
    } catch (SdkException e) {
      throw wrap("reading metadata of " + path, e);
    }
  }

  @Override
  public InputStream openFrom(String path, long offset) throws IOException {
    Location at = Location.of(path);
    try {
      return client.getObject(
          b -> {
            b.bucket(at.bucket()).key(at.key());
            if (offset > 0) {
              b.range("bytes=" + offset + "-");
            }
          });
    } catch (NoSuchKeyException e) {
      throw notFound(path);
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw notFound(path);
      }
      if (e.statusCode() == 416) {
        // A range starting at the end of the object: nothing left to read.
        return new ByteArrayInputStream(new byte[0]);
      }
      throw wrap("reading " + path, e);
    } catch (SdkException e) {
      throw wrap("reading " + path, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The buffer lives in a {@link Scratch} directory of its own under the temporary directory,
   * locked while the stream is open and deleted when it is closed, so a process killed mid-upload
   * leaves a directory that a later run's sweep can tell from a live upload.
   */
  @Override
  public OutputStream create(String path) throws IOException {
    Location at = Location.of(path);
    Scratch scratch;
    try {
      scratch = Scratch.create(tempDir);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    try {
      return new ScratchBound(
          new PublishOnClose(scratch.dir().resolve("upload.tmp"), buffer -> upload(at, buffer)),
          scratch);
    } catch (IOException | RuntimeException e) {
      scratch.close();
      throw e;
    }
  }

  /** {@inheritDoc} Uploaded straight from {@code local} (one PUT, or a multipart upload). */
  @Override
  public void publishFile(Path local, String path) throws IOException {
    upload(Location.of(path), local);
    Files.deleteIfExists(local);
  }

  /** A stream whose scratch directory goes when it is closed, after the stream's own close. */
  private static final class ScratchBound extends FilterOutputStream {
    private final Scratch scratch;

    ScratchBound(OutputStream out, Scratch scratch) {
      super(out);
      this.scratch = scratch;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (IOException | RuntimeException e) {
        try {
          scratch.close();
        } catch (UncheckedIOException cleanup) {
          e.addSuppressed(cleanup);
        }
        throw e;
      }
      try {
        scratch.close();
      } catch (UncheckedIOException e) {
        // The upload is done and visible; failing now would misreport it. The directory is
        // unlocked, so a later run's sweep removes it.
        LOG.log(
            System.Logger.Level.WARNING,
            "upload buffer {0} not deleted: {1}; a later run sweeps it",
            scratch.dir(),
            e.getMessage());
      }
    }
  }

  private void upload(Location at, Path file) throws IOException {
    long size = Files.size(file);
    try {
      if (size <= MULTIPART_THRESHOLD) {
        client.putObject(b -> b.bucket(at.bucket()).key(at.key()), RequestBody.fromFile(file));
      } else {
        uploadMultipart(at, file, size);
      }
    } catch (SdkException e) {
      throw wrap("uploading " + at.uri(at.key()), e);
    }
  }

  /**
   * Uploads {@code file} in parts of {@value #PART_SIZE} bytes, {@value #PARTS_IN_FLIGHT} at a
   * time: one connection to S3 carries ~100 MB/s, so a file goes up several times faster side by
   * side, as the AWS CLI and delta-rs's object store send it. Each part is read from the file on
   * every attempt (no copy in memory). The object appears only when the upload is completed; when a
   * part fails for good no further part starts, the upload is aborted once the parts in flight have
   * ended (S3 may otherwise keep a part that was still arriving), and the failure is thrown.
   */
  private void uploadMultipart(Location at, Path file, long size) throws IOException {
    String uploadId =
        client.createMultipartUpload(b -> b.bucket(at.bucket()).key(at.key())).uploadId();
    int count = (int) ((size + PART_SIZE - 1) / PART_SIZE);
    Semaphore slots = new Semaphore(PARTS_IN_FLIGHT);
    java.util.concurrent.atomic.AtomicBoolean failed =
        new java.util.concurrent.atomic.AtomicBoolean();
    List<Future<CompletedPart>> sent = new ArrayList<>();
    try {
      for (int i = 0; i < count && !failed.get(); i++) {
        slots.acquireUninterruptibly();
        if (failed.get()) {
          slots.release();
          break;
        }
        int partNumber = i + 1;
        long offset = i * PART_SIZE;
        long length = Math.min(PART_SIZE, size - offset);
        sent.add(
            PART_UPLOADS.submit(
                () -> {
                  try (Slices slices = new Slices(file, offset, length)) {
                    String etag =
                        client
                            .uploadPart(
                                b ->
                                    b.bucket(at.bucket())
                                        .key(at.key())
                                        .uploadId(uploadId)
                                        .partNumber(partNumber),
                                RequestBody.fromContentProvider(
                                    slices::next, length, "application/octet-stream"))
                            .eTag();
                    return CompletedPart.builder().partNumber(partNumber).eTag(etag).build();
                  } catch (RuntimeException | Error e) {
                    // Recorded before the slot is free: no further part starts after a failure.
                    failed.set(true);
                    throw e;
                  } finally {
                    slots.release();
                  }
                }));
      }
      List<CompletedPart> parts = new ArrayList<>();
      for (Future<CompletedPart> part : sent) {
        parts.add(result(part));
      }
      client.completeMultipartUpload(
          b ->
              b.bucket(at.bucket())
                  .key(at.key())
                  .uploadId(uploadId)
                  .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
    } catch (IOException | SdkException e) {
      for (Future<CompletedPart> part : sent) {
        try {
          part.get();
        } catch (ExecutionException | CancellationException ended) {
          // Its failure is e's, or another part's; only that it ended matters here.
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      client.abortMultipartUpload(b -> b.bucket(at.bucket()).key(at.key()).uploadId(uploadId));
      throw e;
    }
  }

  /**
   * The streams of one part's attempts: each attempt (and the SDK's signing pass) reads a new one
   * from the file; every one opened is closed when the part is done, whether or not the SDK closed
   * it.
   */
  private static final class Slices implements AutoCloseable {
    private final Path file;
    private final long offset;
    private final long length;
    private final List<InputStream> opened = new ArrayList<>();

    Slices(Path file, long offset, long length) {
      this.file = file;
      this.offset = offset;
      this.length = length;
    }

    synchronized InputStream next() {
      InputStream in = slice(file, offset, length);
      opened.add(in);
      return in;
    }

    @Override
    public synchronized void close() {
      for (InputStream in : opened) {
        try {
          in.close();
        } catch (IOException e) {
          // A read-only file handle: nothing was written through it.
        }
      }
      opened.clear();
    }
  }

  /** The part's ETag, or its failure as thrown by the SDK. */
  private static CompletedPart result(Future<CompletedPart> part) throws IOException {
    try {
      return part.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SdkException sdk) {
        throw sdk;
      }
      if (e.getCause() instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while uploading a part", e);
    }
  }

  /** {@code length} bytes of {@code file} from {@code offset}, as a new stream for each attempt. */
  private static InputStream slice(Path file, long offset, long length) {
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
      channel.position(offset);
      InputStream in = Channels.newInputStream(channel);
      return new FilterInputStream(in) {
        private long left = length;

        @Override
        public int read() throws IOException {
          if (left <= 0) {
            return -1;
          }
          int b = super.read();
          if (b >= 0) {
            left--;
          }
          return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (left <= 0) {
            return -1;
          }
          int n = super.read(b, off, (int) Math.min(len, left));
          if (n > 0) {
            left -= n;
          }
          return n;
        }

        @Override
        public long skip(long n) throws IOException {
          long skipped = super.skip(Math.min(n, left));
          left -= skipped;
          return skipped;
        }

        @Override
        public int available() throws IOException {
          return (int) Math.min(super.available(), left);
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean putIfAbsent(String path, byte[] content) throws IOException {
    Location at = Location.of(path);
    try {
      conditionalWrites.putObject(
          b -> b.bucket(at.bucket()).key(at.key()).ifNoneMatch("*"),
          RequestBody.fromBytes(content));
      return true;
    } catch (S3Exception e) {
      if (e.statusCode() == 412) {
        return false;
      }
      if (e.statusCode() == 409) {
        // A concurrent conditional write in flight on the same key (S3
        // "ConditionalRequestConflict").
        return false;
      }
      throw wrap("writing " + path + " if absent", e);
    } catch (SdkException e) {
      throw wrap("writing " + path + " if absent", e);
    }
  }

  @Override
  public void makeDirectories(String path) {
    // Object stores have no directories.
  }

  @Override
  public int deleteAll(Collection<String> paths) throws IOException {
    List<String> all = new ArrayList<>(paths);
    int deleted = 0;
    for (int start = 0; start < all.size(); start += DELETE_BATCH) {
      List<String> batch = all.subList(start, Math.min(all.size(), start + DELETE_BATCH));
      String bucket = Location.of(batch.get(0)).bucket();
      List<ObjectIdentifier> keys = new ArrayList<>();
      for (String path : batch) {
        Location at = Location.of(path);
        if (!at.bucket().equals(bucket)) {
          throw new IllegalArgumentException(
              "one delete batch spans buckets " + bucket + " and " + at.bucket());
        }
        keys.add(ObjectIdentifier.builder().key(at.key()).build());
      }
      try {
        DeleteObjectsResponse response =
            client.deleteObjects(
                b -> b.bucket(bucket).delete(Delete.builder().objects(keys).quiet(true).build()));
        List<String> failed =
            response.errors().stream()
                .filter(e -> !"NoSuchKey".equals(e.code()))
                .map(e -> e.key() + " (" + e.code() + ": " + e.message() + ")")
                .toList();
        if (!failed.isEmpty()) {
          throw new IOException(
              "could not delete "
                  + failed.size()
                  + " of "
                  + keys.size()
                  + " objects in "
                  + bucket
                  + ": "
                  + failed);
        }
        deleted += keys.size();
      } catch (SdkException e) {
        throw wrap("deleting " + keys.size() + " objects in " + bucket, e);
      }
    }
    return deleted;
  }

  private List<S3Object> list(ListObjectsV2Request request, Location at) throws IOException {
    List<S3Object> objects = new ArrayList<>();
    try {
      for (ListObjectsV2Response page : client.listObjectsV2Paginator(request)) {
        objects.addAll(page.contents());
      }
    } catch (SdkException e) {
      throw wrap("listing " + at.uri(request.prefix()), e);
    }
    return objects;
  }

  private boolean isEmptyDirectory(String bucket, String dir) throws IOException {
    try {
      return client.listObjectsV2(b -> b.bucket(bucket).prefix(dir).maxKeys(1)).keyCount() == 0;
    } catch (SdkException e) {
      throw wrap("listing s3://" + bucket + "/" + dir, e);
    }
  }

  private static StoredObject toStored(Location at, S3Object object) {
    return new StoredObject(
        at.uri(object.key()), object.size(), object.lastModified().toEpochMilli());
  }

  private static FileNotFoundException notFound(String path) {
    return new FileNotFoundException("No such object: " + path);
  }

  private IOException wrap(String doing, SdkException e) {
    return new IOException("S3 failed while " + doing + ": " + explain(e, endpoint()), e);
  }

  /** The endpoint requests go to: the override (a local server) or AWS's regional one. */
  private String endpoint() {
    var configuration = client.serviceClientConfiguration();
    return configuration
        .endpointOverride()
        .map(java.net.URI::toString)
        .orElseGet(
            () ->
                "https://s3."
                    + (configuration.region() == null ? "us-east-1" : configuration.region().id())
                    + ".amazonaws.com");
  }

  /**
   * The cause of an SDK failure in one line, with the fix where it is known: missing credentials, a
   * refused connection, an unknown host; else the SDK's own message.
   */
  static String explain(SdkException e, String endpoint) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (message.contains("Unable to load credentials")) {
        return "no AWS credentials (Unable to load credentials from any provider in the chain)."
            + " Fix: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run"
            + " where an IAM role provides them";
      }
      if (t instanceof java.net.ConnectException) {
        return "connection refused to "
            + endpoint
            + " ("
            + message
            + "). Fix: check AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, and that the S3 server there"
            + " is running";
      }
      if (t instanceof java.net.UnknownHostException) {
        return "unknown host "
            + message
            + " for "
            + endpoint
            + ". Fix: check AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION and"
            + " COMPACTOR_S3_PATH_STYLE=true for servers without virtual-host names";
      }
    }
    return e.getMessage();
  }

  static int compareUtf8(String a, String b) {
    return java.util.Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
