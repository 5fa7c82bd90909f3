package dev.retryaudit.json;

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

    /** The JSON path step to member {@code name} of an object: {@code .name}, or {@code ['http.path']} where it is
     * no identifier; shortened as {@link JsonCursor#path} shortens names. */
    public static String member(String key) {
        String name = dev.retryaudit.text.Escaping.shortened(key, 80);
        boolean identifier = !name.isEmpty() && !Character.isDigit(name.charAt(0));
        for (int i = 0; identifier && i < name.length(); i++) {
            char ch = name.charAt(i);
            identifier = ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '$';
        }
        return identifier ? "." + name : "['" + name.replace("'", "\\'") + "']";
    }
}
