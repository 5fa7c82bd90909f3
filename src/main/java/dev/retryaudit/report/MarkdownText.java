package dev.retryaudit.report;

import dev.retryaudit.text.Escaping;

/**
 * Text from the input made inert in GitHub-flavoured Markdown, inside a table cell or after other text on
 * a line: control, format and separator characters are made visible first (as every format does), so the
 * text is one line; then each character that means something there is escaped with a backslash, which
 * CommonMark allows for every ASCII punctuation character and reads as the character itself: {@code \ `
 * * _ [ ] ( ) < > & | # ! ~ @ : ^ $}, and the dot of {@code www.}. So no input string can end a table cell,
 * open an HTML element or entity, a link, an image, emphasis, code or math, or become an autolink
 * ({@code https:}, {@code www.}, an e-mail address), a mention, an issue reference or an emoji
 * ({@code :smile:}). What means something only at the start of a line (a heading, a list, a quote) never
 * stands there: every line begins with the report's own markup.
 */
final class MarkdownText {
    private static final String SPECIAL = "\\`*_[]()<>&|#!~@:^$";

    private MarkdownText() {
    }

    static String escape(String s) {
        String e = Escaping.controls(s);
        StringBuilder b = null;
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            if (SPECIAL.indexOf(c) >= 0 || (c == '.' && i >= 3 && e.regionMatches(true, i - 3, "www", 0, 3))) {
                if (b == null) {
                    b = new StringBuilder(e.length() + 16).append(e, 0, i);
                }
                b.append('\\');
            }
            if (b != null) {
                b.append(c);
            }
        }
        return b == null ? e : b.toString();
    }
}
