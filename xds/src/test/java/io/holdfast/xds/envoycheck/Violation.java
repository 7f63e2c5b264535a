package io.holdfast.xds.envoycheck;

import java.util.Objects;

/**
 * One broken constraint.
 *
 * @param path   where, from the resource down, e.g. {@code listener[demo/gw].filter_chains[0].filters[0]
 *               .typed_config(HttpConnectionManager).stat_prefix}; Any payloads appear as {@code field(Type)},
 *               map entries as {@code field[key]}, oneofs by their oneof name
 * @param rule   the PGV rule as written in Envoy's proto, e.g. {@code string.min_len 1}, {@code oneof.required},
 *               or a {@code checker.*} rule when the checker could not look inside (e.g. an unknown Any type)
 * @param actual what was found, e.g. {@code ""} or {@code -1s}
 */
public record Violation(String path, String rule, String actual) {

  public Violation {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(actual, "actual");
  }

  @Override
  public String toString() {
    return path + ": " + rule + " (was " + actual + ")";
  }
}
