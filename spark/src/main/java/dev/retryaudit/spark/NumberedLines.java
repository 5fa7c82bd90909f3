package dev.retryaudit.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;
import scala.Tuple2;

/**
 * Text files read in parallel with the line number of every line, blank lines included. Hadoop's text
 * reader gives each line's byte offset, not its number: a first pass counts the lines of every split
 * that another split of its file follows (a number per split comes to the driver; a split that ends
 * its file is not read), their sums per file give each split's first line, and the second pass numbers
 * the lines of a split from there. A file in one split is read once. Line ends are LF, CR LF or CR, as
 * the command line's parser counts them.
 */
final class NumberedLines {
    private NumberedLines() {
    }

    /** Where a split starts and how many lines it holds; -1 lines for a split that ends its file, not counted. */
    record SplitCount(String file, long start, long lines) implements java.io.Serializable {
        /** Whether the split holds its whole file. */
        boolean whole() {
            return start == 0 && lines < 0;
        }
    }

    /** The numbered lines, and the partitions (by index) that each hold a whole file. */
    record Numbered(JavaRDD<SpanLine> lines, WholeFiles whole) {
    }

    /** The least and the most bytes of a split: a file is split so that every core has a part of the input. */
    private static final long MIN_SPLIT = 4L << 20;
    private static final long MAX_SPLIT = 128L << 20;

    /**
     * The lines of {@code files} (qualified paths, in source order, {@code bytes} in all), numbered within
     * each file; in splits of Hadoop's {@code mapreduce.input.fileinputformat.split.maxsize} bytes when it
     * is set, else of the input over the default parallelism, within 4 and 128 MiB.
     */
    static Numbered read(JavaSparkContext jsc, List<Path> files, long bytes) {
        long configured = jsc.hadoopConfiguration().getLong(FileInputFormat.SPLIT_MAXSIZE, 0);
        long splitBytes = configured > 0 ? configured
                : Math.max(MIN_SPLIT, Math.min(MAX_SPLIT, bytes / Math.max(1, jsc.defaultParallelism())));
        JavaNewHadoopRDD<LongWritable, Text> raw = open(jsc, files, splitBytes);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < files.size(); i++) {
            index.putIfAbsent(files.get(i).toString(), i);
        }
        Map<String, Long> lengths = new HashMap<>();
        for (Path f : files) {
            try {
                lengths.put(f.toString(), f.getFileSystem(jsc.hadoopConfiguration()).getFileStatus(f).getLen());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        // One count a partition, in partition order.
        List<SplitCount> counts = raw.mapPartitionsWithInputSplit((split, lines) -> count(split, lines,
                lengths), true).collect();
        Map<Integer, Integer> whole = new HashMap<>();
        for (int p = 0; p < counts.size(); p++) {
            if (counts.get(p).whole()) {
                whole.put(p, index.get(counts.get(p).file()));
            }
        }
        Map<String, TreeMap<Long, Long>> byFile = new HashMap<>();
        counts.forEach(c -> byFile.computeIfAbsent(c.file(), f -> new TreeMap<>()).merge(c.start(), c.lines(), Long::sum));
        Map<String, Long> firstLine = new HashMap<>();
        byFile.forEach((file, splits) -> {
            long next = 1;
            for (Map.Entry<Long, Long> s : splits.entrySet()) {
                firstLine.put(file + "@" + s.getKey(), next);
                next += s.getValue();
            }
        });
        Broadcast<Map<String, Long>> first = jsc.broadcast(firstLine);
        Broadcast<Map<String, Integer>> sources = jsc.broadcast(index);
        return new Numbered(raw.mapPartitionsWithInputSplit((split, lines) -> {
            FileSplit fs = (FileSplit) split;
            String file = fs.getPath().toString();
            int source = sources.value().get(file);
            long base = first.value().get(file + "@" + fs.getStart());
            return new Iterator<SpanLine>() {
                private long n = base;

                @Override
                public boolean hasNext() {
                    return lines.hasNext();
                }

                @Override
                public SpanLine next() {
                    return new SpanLine(source, n++, lines.next()._2().copyBytes());
                }
            };
        }, true), new WholeFiles(whole, files.stream().map(Path::toString).toList(),
                SerializableConfiguration.broadcast(jsc.sc(), jsc.hadoopConfiguration())));
    }

    /** The lines of {@code split}, or -1 without reading them when it ends its file ({@code lengths}, by path). */
    private static Iterator<SplitCount> count(InputSplit split, Iterator<Tuple2<LongWritable, Text>> lines,
            Map<String, Long> lengths) {
        FileSplit fs = (FileSplit) split;
        if (fs.getStart() + fs.getLength() >= lengths.get(fs.getPath().toString())) {
            return List.of(new SplitCount(fs.getPath().toString(), fs.getStart(), -1)).iterator();
        }
        long n = 0;
        while (lines.hasNext()) {
            lines.next();
            n++;
        }
        return List.of(new SplitCount(fs.getPath().toString(), fs.getStart(), n)).iterator();
    }

    @SuppressWarnings("unchecked")
    private static JavaNewHadoopRDD<LongWritable, Text> open(JavaSparkContext jsc, List<Path> files, long split) {
        try {
            Job job = Job.getInstance(jsc.hadoopConfiguration());
            FileInputFormat.setInputPaths(job, new ArrayList<>(files).toArray(Path[]::new));
            FileInputFormat.setInputDirRecursive(job, false);
            FileInputFormat.setMaxInputSplitSize(job, split);
            if (jsc.hadoopConfiguration().getLong(FileInputFormat.SPLIT_MINSIZE, 0) <= 0) {
                // Not cut at the file system's block size (32 MiB on a local disk) when the splits may be larger.
                FileInputFormat.setMinInputSplitSize(job, split);
            }
            return (JavaNewHadoopRDD<LongWritable, Text>) jsc.newAPIHadoopRDD(job.getConfiguration(),
                    TextInputFormat.class, LongWritable.class, Text.class);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
