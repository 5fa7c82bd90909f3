package dev.retryaudit.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every field of a model builder reaches the value it builds, its equality and its copy: a field added to a
 * builder but forgotten in the value's constructor, {@code equals} or {@code toBuilder()} fails here.
 */
class ModelBuildersTest {
    private static final Location AT = new Location("in.json", 0, 3, 5, "/operations/2");

    @Test
    void everyAttemptFieldIsBuiltComparedAndCopied() throws Exception {
        checkEveryField(Attempt.Builder.class, () -> Attempt.builder().attemptId(1).at(AT),
                Attempt.Builder::build, a -> a.toBuilder().build());
    }

    @Test
    void everyOperationFieldIsBuiltComparedAndCopied() throws Exception {
        Attempt one = Attempt.builder().attemptId(1).at(AT).build();
        checkEveryField(Operation.Builder.class,
                () -> Operation.builder().id("op").tool("t").attempts(List.of(one)).at(AT),
                Operation.Builder::build, o -> o.toBuilder().build());
    }

    @Test
    void everyPolicyFieldIsBuiltComparedAndCopied() throws Exception {
        checkEveryField(Policy.Builder.class, Policy::builder, Policy.Builder::build, p -> p.toBuilder().build());
    }

    @Test
    void aReusedAttemptBuilderForgetsEverythingWhenCleared() {
        Attempt.Builder b = Attempt.builder().attemptId(2).spanId("s").startMillis(5).status(503).at(AT);
        Attempt first = b.build();
        Attempt again = b.clear().attemptId(2).at(AT).build();
        assertThat(again).isNotEqualTo(first).isEqualTo(Attempt.builder().attemptId(2).at(AT).build());
        assertThat(again.hasStart()).isFalse();
        assertThat(first.startMillis()).isEqualTo(5);
    }

    @Test
    void anAttemptPlacedByItsPartsHasTheLocationOfThoseParts() {
        Attempt a = Attempt.builder().attemptId(1).at("in.json", 0, 3, 5).pointer("/operations/", 2)
                .nested("/attempts/", 0).build();
        assertThat(a.location()).isEqualTo(new Location("in.json", 0, 3, 5, "/operations/2/attempts/0"));
        assertThat(a.toBuilder().build()).isEqualTo(a);
    }

    /**
     * For each field of {@code type} (the place's parts aside): the value built with it set differs from the one
     * built without it, and the value's copy equals it.
     */
    private static <B, V> void checkEveryField(Class<B> type, Supplier<B> base, Builds<B, V> build, Copies<V> copy)
            throws Exception {
        V plain = build.apply(base.get());
        assertThat(copy.apply(plain)).isEqualTo(plain);
        List<String> missed = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("added")) {
                continue;
            }
            f.setAccessible(true);
            B b = base.get();
            Object other = otherValue(f, f.get(b));
            if (Modifier.isFinal(f.getModifiers())) {
                fill(f.get(b), other);
            } else {
                f.set(b, other);
            }
            V changed = build.apply(b);
            if (changed.equals(plain) || !copy.apply(changed).equals(changed)) {
                missed.add(f.getName());
            }
        }
        assertThat(missed).as("fields of %s that the value does not build, compare or copy", type.getName()).isEmpty();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void fill(Object collection, Object value) {
        if (collection instanceof Map m) {
            m.putAll((Map) value);
        } else {
            ((java.util.Collection) collection).addAll((java.util.Collection) value);
        }
    }

    /** A value of {@code f}'s type other than {@code current}. */
    private static Object otherValue(Field f, Object current) {
        Class<?> t = f.getType();
        if (t == int.class) {
            return (Integer) current + 7;
        }
        if (t == long.class) {
            return (Long) current == Long.MIN_VALUE ? 1_000L : (Long) current + 7;
        }
        if (t == double.class) {
            return Double.isNaN((Double) current) ? 12.5 : (Double) current + 0.5;
        }
        if (t == boolean.class) {
            return !(Boolean) current;
        }
        if (t == Integer.class) {
            return 404;
        }
        if (t == Long.class) {
            return 30_000L;
        }
        if (t == String.class) {
            return f.getName().endsWith("Json") ? "{\"k\":1}" : "x-" + f.getName();
        }
        if (t.isEnum()) {
            Object[] constants = t.getEnumConstants();
            return constants[0] == current ? constants[1] : constants[0];
        }
        if (t == dev.retryaudit.model.values.ParentRef.class) {
            return new dev.retryaudit.model.values.ParentRef("parent", 2);
        }
        Class<?> element = f.getGenericType() instanceof ParameterizedType p
                && p.getActualTypeArguments()[p.getActualTypeArguments().length - 1] instanceof Class<?> c ? c : Object.class;
        if (t == List.class) {
            return element == Check.class ? List.of(new Check(1, null, "ledger_lookup", CheckResult.NOT_FOUND, 0L, AT))
                    : element == Attempt.class ? List.of(Attempt.builder().attemptId(3).at(AT).build())
                    : List.of("pkg.Service/Get*");
        }
        if (t == Set.class) {
            return element == Integer.class ? Set.of(418) : element == GrpcStatus.class ? Set.of(GrpcStatus.ABORTED)
                    : element == Field.class ? Set.of() : Set.of("tool-x");
        }
        if (t == Map.class) {
            return element == Severity.class ? Map.of("budget/deadline", Severity.NOTE)
                    : element == Boolean.class ? Map.of("budget/deadline", false)
                    : element == Effect.class ? Map.of("tool-x", Effect.READ) : Map.of("tool-x", 9);
        }
        throw new AssertionError("no other value for " + f);
    }

    /** Builds a value from a builder. */
    private interface Builds<B, V> {
        V apply(B builder);
    }

    /** Copies a value through its builder. */
    private interface Copies<V> {
        V apply(V value);
    }
}
