package dev.retryaudit.model;

import java.io.Serializable;

/**
 * A text built each time it is read from the few values it is made of: the message of a finding that most
 * operations of a large input may get, held as its values until it is written.
 */
public interface LazyText extends Serializable {
    /** The text. */
    String text();
}
