package dev.retryaudit.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A large spans input made of copies of the fixtures the command line accepts with its default policy:
 * every copy renames its operations, keys and runs, and spreads the operations of one run and of one
 * key over all files; parent chains run across runs and files (a child may come before its parent);
 * blank lines are sprinkled in, and the last file ends its lines with CR LF.
 */
final class SpanCorpus {
    private SpanCorpus() {
    }

    /** Writes {@code files} files under {@code dir} with at least {@code operations} operations; returns them. */
    static List<Path> write(Path dir, int files, int operations, List<Path> fixtures) throws IOException {
        List<List<List<ObjectNode>>> sets = new ArrayList<>();
        int perCopy = 0;
        for (Path f : fixtures) {
            List<List<ObjectNode>> ops = operations(f);
            sets.add(ops);
            perCopy += ops.size();
        }
        int copies = (operations + perCopy - 1) / perCopy;
        List<BufferedWriter> out = new ArrayList<>();
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            Path p = dir.resolve("part-" + i + ".jsonl");
            paths.add(p);
            out.add(Files.newBufferedWriter(p, StandardCharsets.UTF_8));
        }
        long[] lines = new long[files];
        int op = 0;
        for (int c = 0; c < copies; c++) {
            for (int s = 0; s < sets.size(); s++) {
                for (List<ObjectNode> lineSet : sets.get(s)) {
                    int file = op++ % files;
                    for (ObjectNode line : lineSet) {
                        write(out.get(file), copy(line, c + "." + s), file == files - 1, lines[file]++ % 97 == 0);
                    }
                }
            }
        }
        for (int chain = 0; chain < 50; chain++) {
            for (int depth = 0; depth < 3; depth++) {
                int file = (chain + 2 - depth + files) % files;
                for (int a = 1; a <= 2; a++) {
                    ObjectNode line = Parity.JSON.createObjectNode();
                    line.put("operation_id", "chain-" + chain + "-" + depth);
                    line.put("parent_run_id", "chain-run-" + chain + "-" + depth);
                    line.put("tool", "layer_" + depth);
                    line.put("method", "GET");
                    if (depth > 0) {
                        ObjectNode parent = line.putObject("parent");
                        parent.put("operation", "chain-" + chain + "-" + (depth - 1));
                        parent.put("attempt", 1);
                    }
                    line.put("attempt_id", a);
                    line.put("outcome", a == 1 ? "error" : "success");
                    line.put("status", a == 1 ? 503 : 200);
                    line.put("retry_reason", a == 1 ? "" : "503");
                    write(out.get(file), line, file == files - 1, false);
                }
            }
        }
        for (BufferedWriter w : out) {
            w.close();
        }
        return paths;
    }

    private static void write(BufferedWriter w, JsonNode line, boolean crlf, boolean blankBefore) throws IOException {
        String end = crlf ? "\r\n" : "\n";
        if (blankBefore) {
            w.write(end);
        }
        w.write(Parity.JSON.writeValueAsString(line));
        w.write(end);
    }

    /** A fixture's lines grouped by operation (operation_id, else idempotency key), in order of first line. */
    private static List<List<ObjectNode>> operations(Path fixture) throws IOException {
        Map<String, List<ObjectNode>> ops = new LinkedHashMap<>();
        for (String text : Files.readAllLines(fixture)) {
            if (text.isBlank()) {
                continue;
            }
            ObjectNode line = (ObjectNode) Parity.JSON.readTree(text);
            String id = line.hasNonNull("operation_id") ? "o" + line.get("operation_id").asText()
                    : "k" + line.get("idempotency_key").asText();
            ops.computeIfAbsent(id, k -> new ArrayList<>()).add(line);
        }
        return new ArrayList<>(ops.values());
    }

    /** The line of copy {@code c}: its operation, key, run and parent renamed. */
    private static ObjectNode copy(ObjectNode line, String c) {
        ObjectNode out = line.deepCopy();
        for (String field : List.of("operation_id", "idempotency_key", "parent_run_id", "span_id")) {
            if (out.hasNonNull(field)) {
                out.put(field, out.get(field).asText() + "~" + c);
            }
        }
        if (out.get("parent") instanceof ObjectNode parent && parent.hasNonNull("operation")) {
            parent.put("operation", parent.get("operation").asText() + "~" + c);
        }
        return out;
    }
}
