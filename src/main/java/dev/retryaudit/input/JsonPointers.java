package dev.retryaudit.input;

/** Converts JSON Pointers ({@code /operations/3/attempts/1}) to the JSON paths errors name ({@code $.operations[3].attempts[1]}). */
public final class JsonPointers {
    private JsonPointers() {
    }

    public static String toPath(String pointer) {
        StringBuilder b = new StringBuilder("$");
        if (pointer.isEmpty()) {
            return "$";
        }
        for (String seg : pointer.substring(1).split("/", -1)) {
            String name = seg.replace("~1", "/").replace("~0", "~");
            if (name.matches("0|[1-9][0-9]*")) {
                b.append('[').append(name).append(']');
            } else {
                b.append('.').append(name);
            }
        }
        return b.toString();
    }
}
