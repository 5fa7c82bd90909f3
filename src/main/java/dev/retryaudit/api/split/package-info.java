/**
 * Public API of retry-audit for an engine that splits an audit over threads, processes or machines (a Spark
 * job): {@link dev.retryaudit.api.split.SplitAudit}, the parts it audits and merges, the line reader that
 * reads an input a line at a time where its lines are, the input errors in the order the command line meets
 * them, and the report's pieces (a finding's JSON and its place in the report's order as bytes). The library
 * face is {@code dev.retryaudit.api}.
 */
package dev.retryaudit.api.split;
