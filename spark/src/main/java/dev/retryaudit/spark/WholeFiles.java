package dev.retryaudit.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The partitions of an input's lines that each hold one whole file, with that file's source (by index), and
 * the way to open the file on an executor (its bytes as Hadoop's text reader gives them, decompressed by the
 * codec its name says), for a reader that reads a whole file in one pass.
 */
final class WholeFiles implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<Integer, Integer> sources;
    private final List<String> paths;
    private final Broadcast<SerializableConfiguration> conf;

    /**
     * Partitions {@code sources} (partition to source index) of the files at {@code paths} (by source index),
     * opened with the Hadoop configuration {@code conf}.
     */
    WholeFiles(Map<Integer, Integer> sources, List<String> paths, Broadcast<SerializableConfiguration> conf) {
        this.sources = Map.copyOf(sources);
        this.paths = List.copyOf(paths);
        this.conf = conf;
    }

    /** No partition holds a whole file (lines that come from elsewhere than text files). */
    static WholeFiles none() {
        return new WholeFiles(Map.of(), List.of(), null);
    }

    /** The partitions that hold a whole file each. */
    Set<Integer> partitions() {
        return Set.copyOf(sources.keySet());
    }

    boolean holds(int partition) {
        return sources.containsKey(partition);
    }

    /** The source (by index) of the file partition {@code partition} holds. */
    int source(int partition) {
        return sources.get(partition);
    }

    /** The text of the file partition {@code partition} holds, from its first byte; the caller closes it. */
    InputStream open(int partition) throws IOException {
        Path path = new Path(paths.get(source(partition)));
        InputStream in = path.getFileSystem(conf.value().value()).open(path);
        CompressionCodec codec = new CompressionCodecFactory(conf.value().value()).getCodec(path);
        return codec == null ? in : codec.createInputStream(in);
    }
}
