package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.InputRejection;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The files of the inputs, in order, each a source of the audit: a path that names a file is one
 * source under the name given; a directory or a glob gives its files (not those whose name starts
 * with {@code _} or {@code .}, as Spark writes them) in path order, each named by the input with the
 * rest of its path. Any file system Hadoop can reach (local, HDFS, S3 through the cluster's connector).
 */
record Sources(List<String> names, List<Path> files, long bytes) {
    static Sources of(List<String> inputs, Configuration conf) throws RetryAuditException {
        List<String> names = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        long bytes = 0;
        for (String input : inputs) {
            try {
                Path p = new Path(input);
                FileSystem fs = p.getFileSystem(conf);
                FileStatus[] matched = fs.globStatus(p);
                if (matched == null || matched.length == 0) {
                    throw InputRejection.unreadable(input, "no such file");
                }
                Arrays.sort(matched, Comparator.comparing(FileStatus::getPath));
                boolean single = matched.length == 1 && matched[0].isFile() && !hasGlob(input);
                for (FileStatus m : matched) {
                    for (FileStatus f : filesUnder(fs, m)) {
                        names.add(single ? input : nameOf(input, p, f.getPath(), fs));
                        files.add(f.getPath());
                        bytes += f.getLen();
                    }
                }
            } catch (IOException e) {
                throw InputRejection.unreadable(input, "cannot be read: " + e.getMessage());
            }
        }
        return new Sources(List.copyOf(names), List.copyOf(files), bytes);
    }

    /** Up to {@code n} first bytes of source {@code s}, fewer at its end. */
    byte[] head(int s, int n, Configuration conf) throws RetryAuditException {
        Path file = files.get(s);
        try (InputStream in = file.getFileSystem(conf).open(file)) {
            return in.readNBytes(n);
        } catch (IOException e) {
            throw InputRejection.unreadable(names.get(s), "cannot be read: " + e.getMessage());
        }
    }

    private static List<FileStatus> filesUnder(FileSystem fs, FileStatus s) throws IOException {
        if (s.isFile()) {
            return List.of(s);
        }
        List<FileStatus> out = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(s.getPath(), true);
        while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (!hidden(s.getPath(), f.getPath())) {
                out.add(f);
            }
        }
        out.sort(Comparator.comparing(FileStatus::getPath));
        return out;
    }

    private static boolean hidden(Path root, Path file) {
        for (Path p = file; p != null && !p.equals(root); p = p.getParent()) {
            if (p.getName().startsWith("_") || p.getName().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** A file found under an input, named by the input followed by the path below it. */
    private static String nameOf(String input, Path given, Path file, FileSystem fs) {
        String root = fs.makeQualified(given).toString();
        String path = file.toString();
        if (!hasGlob(input) && path.startsWith(root + "/")) {
            return (input.endsWith("/") ? input : input + "/") + path.substring(root.length() + 1);
        }
        return path;
    }

    private static boolean hasGlob(String input) {
        return input.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }
}
