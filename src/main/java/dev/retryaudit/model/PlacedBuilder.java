package dev.retryaudit.model;

/**
 * The place of a value being built, kept as parts as {@link Placed} keeps it: a reader streaming millions
 * of attempts sets the source, line and column and the JSON Pointer's constant prefixes and indices, and
 * no {@link Location} (nor pointer) is made unless one is asked for. Each builder of a placed value
 * extends it; {@code B} is that builder, which the setters give back.
 */
abstract class PlacedBuilder<B extends PlacedBuilder<B>> {
    String source;
    int sourceIndex;
    long line;
    long column;
    String pointerPrefix;
    int pointerIndex = -1;
    String nestedPrefix;
    int nestedIndex = -1;

    abstract B self();

    /** Where the value stands: {@code location}'s source, line, column and whole JSON Pointer. */
    public B at(Location location) {
        at(location.source(), location.sourceIndex(), location.line(), location.column());
        pointerPrefix = location.pointer();
        return self();
    }

    /**
     * Where the value stands: line {@code line}, column {@code column} of source {@code source} (number
     * {@code sourceIndex} of the run), with no JSON Pointer until {@link #pointer} gives one.
     */
    public B at(String source, int sourceIndex, long line, long column) {
        this.source = source;
        this.sourceIndex = sourceIndex;
        this.line = line;
        this.column = column;
        pointerPrefix = null;
        pointerIndex = -1;
        nestedPrefix = null;
        nestedIndex = -1;
        return self();
    }

    /**
     * The JSON Pointer {@code prefix + index} ({@code prefix} alone when {@code index} is negative; none when
     * {@code prefix} is null), made only when the location is asked for.
     */
    public B pointer(String prefix, int index) {
        pointerPrefix = prefix;
        pointerIndex = index;
        nestedPrefix = null;
        nestedIndex = -1;
        return self();
    }

    /** What follows the pointer's index: {@code prefix + index} ({@code /attempts/} 1); none when {@code prefix} is null. */
    public B nested(String prefix, int index) {
        nestedPrefix = prefix;
        nestedIndex = index;
        return self();
    }

    /** The place given, as a location. */
    Location location() {
        int index = pointerPrefix == null ? -1 : pointerIndex;
        return new Location(source, sourceIndex, line, column,
                Placed.pointer(pointerPrefix, index, index < 0 ? null : nestedPrefix, nestedIndex));
    }

    /** Whether a place was given. */
    boolean placed() {
        return source != null;
    }
}
