/**
 * Public API: the rule API, for rules of a caller's own: {@link
 * dev.retryaudit.rules.OperationRule}, {@link dev.retryaudit.rules.CrossOperationRule}, their
 * metadata and context. The built-in rules live in the family
 * packages below, the engine and catalogue in {@code rules.engine}.
 */
package dev.retryaudit.rules;
