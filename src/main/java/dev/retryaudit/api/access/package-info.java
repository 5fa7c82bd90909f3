/**
 * Internal: not part of the API (see {@code dev.retryaudit.api}); may change in any release. What the split
 * protocol ({@code dev.retryaudit.api.split}) takes from an auditor of the library face and from its error
 * type without the library face naming it: lent once, as the library face's classes load.
 */
package dev.retryaudit.api.access;
