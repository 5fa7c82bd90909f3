package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's table of contents lists its sections in order, every relative link of the docs leads to a file (and its
 * anchor to a heading of it), and no page is over 40 KiB.
 */
class ReadmeContentsTest {
    private static final Pattern ENTRY = Pattern.compile("^- \\[([^]]+)]\\(#([^)]+)\\)$", Pattern.MULTILINE);
    private static final Pattern ANCHORED = Pattern.compile("]\\((?!https?:)([^)#]*)#([^)]+)\\)");
    private static final Pattern LINK = Pattern.compile("]\\((?!https?:|#)([^)#]+)(#[^)]*)?\\)");

    @Test
    void theContentsListEverySectionInOrder() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        List<String> sections = readme.lines().filter(l -> l.startsWith("## ") && !l.equals("## Contents"))
                .map(l -> l.substring(3)).toList();
        List<String> listed = new ArrayList<>();
        Matcher m = ENTRY.matcher(readme.substring(readme.indexOf("## Contents"), readme.indexOf("## Quick start")));
        while (m.find()) {
            listed.add(m.group(1));
            assertThat(m.group(2)).isEqualTo(anchor(m.group(1)));
        }
        assertThat(listed).isEqualTo(sections);
    }

    @Test
    void everyRelativeLinkLeadsToAFile() throws IOException {
        List<Path> docs = docs();
        List<String> broken = new ArrayList<>();
        for (Path doc : docs) {
            Matcher m = LINK.matcher(Files.readString(doc));
            while (m.find()) {
                Path target = doc.resolveSibling(m.group(1)).normalize();
                if (!Files.exists(target)) {
                    broken.add(doc + " -> " + m.group(1));
                }
            }
        }
        assertThat(docs).hasSizeGreaterThan(2);
        assertThat(broken).isEmpty();
    }

    @Test
    void everyPageIsAReferenceOfAtMostFortyKilobytes() throws IOException {
        List<String> over = new ArrayList<>();
        for (Path doc : docs()) {
            if (Files.size(doc) > 40 * 1024) {
                over.add(doc + " (" + Files.size(doc) + " bytes)");
            }
        }
        assertThat(over).as("pages over 40 KiB: give current figures only, split a page by topic").isEmpty();
    }

    @Test
    void everyAnchorLeadsToAHeadingOfItsFile() throws IOException {
        List<Path> docs = docs();
        List<String> broken = new ArrayList<>();
        for (Path doc : docs) {
            Matcher m = ANCHORED.matcher(Files.readString(doc));
            while (m.find()) {
                Path target = m.group(1).isEmpty() ? doc : doc.resolveSibling(m.group(1)).normalize();
                if (Files.isRegularFile(target) && target.toString().endsWith(".md")
                        && !anchors(Files.readString(target)).contains(m.group(2))) {
                    broken.add(doc + " -> " + m.group(1) + "#" + m.group(2));
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    /** README.md and every markdown file under docs/, its folders included. */
    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> files = Files.walk(Path.of("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /** The anchors of a markdown file's headings, outside code blocks. */
    private static List<String> anchors(String markdown) {
        List<String> anchors = new ArrayList<>();
        boolean code = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                anchors.add(anchor(line.replaceFirst("^#+ ", "")));
            }
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\w\\- ]", "").replace(' ', '-');
    }
}
