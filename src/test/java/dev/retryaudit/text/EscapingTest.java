package dev.retryaudit.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EscapingTest {
    @Test
    void controlCharactersAreEscaped() {
        assertThat(Escaping.controls("a\u001b[2Jb\n\r\t\u0000\u007f\u009b")).isEqualTo("a\\e[2Jb\\n\\r\\t\\u0000\\u007f\\u009b");
    }

    @Test
    void formatAndSeparatorCharactersAreEscaped() {
        assertThat(Escaping.controls("invoice\u202egnp.exe\u202c")).isEqualTo("invoice\\u202egnp.exe\\u202c");
        assertThat(Escaping.controls("a\u2028b\u2029c")).isEqualTo("a\\u2028b\\u2029c");
        assertThat(Escaping.controls("zero\u200bwidth\u200d\ufeff\u00ad")).isEqualTo("zero\\u200bwidth\\u200d\\ufeff\\u00ad");
        assertThat(Escaping.controls("rtl\u2066x\u2069")).isEqualTo("rtl\\u2066x\\u2069");
    }

    @Test
    void supplementaryFormatCharactersAreEscapedAsBothUnits() {
        assertThat(Escaping.controls("tag\udb40\udc01end")).isEqualTo("tag\\udb40\\udc01end");
    }

    @Test
    void printableTextPassesUnchanged() {
        String s = "été 😀 日本 ß ∑ a b";
        assertThat(Escaping.controls(s)).isSameAs(s);
    }

    @Test
    void loneSurrogatesAreEscapedAndPairsKept() {
        assertThat(Escaping.controls("x\ud83dy")).isEqualTo("x\\ud83dy");
        assertThat(Escaping.controls("x\ude00y")).isEqualTo("x\\ude00y");
        assertThat(Escaping.controls("😀\u202e😀")).isEqualTo("😀\\u202e😀");
    }
}
