package dev.retryaudit.json;

/** Checks on decimal digits that foreign readers make for every value, without a regular expression. */
public final class Decimal {
    private Decimal() {
    }

    /** Whether every character of {@code s} from {@code from} on is an ASCII digit. */
    public static boolean isDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return false;
            }
        }
        return true;
    }
}
