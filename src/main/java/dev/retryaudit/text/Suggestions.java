package dev.retryaudit.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Finds the known names closest to a misspelt one, for "did you mean" hints. */
public final class Suggestions {
    private Suggestions() {
    }

    /** The single closest known name, if it is close enough to be a plausible typo. */
    public static Optional<String> closest(String given, Collection<String> known) {
        List<String> all = closestAll(given, known, 1);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
    }

    /** Up to {@code max} known names within a typo's distance, closest first, ties in the order given. */
    public static List<String> closestAll(String given, Collection<String> known, int max) {
        int limit = Math.max(2, given.length() / 3);
        List<String> names = new ArrayList<>();
        List<Integer> distances = new ArrayList<>();
        for (String k : known) {
            int d = distance(given.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
            boolean related = d <= limit || k.startsWith(given) || (given.length() >= 3 && k.contains(given));
            if (!related) {
                continue;
            }
            int at = 0;
            while (at < distances.size() && distances.get(at) <= d) {
                at++;
            }
            names.add(at, k);
            distances.add(at, d);
        }
        return names.size() > max ? List.copyOf(names.subList(0, max)) : List.copyOf(names);
    }

    /** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
