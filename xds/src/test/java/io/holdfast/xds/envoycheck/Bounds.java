package io.holdfast.xds.envoycheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * PGV's {@code lt}/{@code lte}/{@code gt}/{@code gte} semantics, shared by numbers, durations and timestamps:
 * with one bound set on each side, the value must lie between them when the upper bound is greater than the
 * lower one, and outside them otherwise (PGV's "exclusive range": {@code {gt: 10, lt: 5}} means "> 10 or < 5").
 * {@code lt} wins over {@code lte} and {@code gt} over {@code gte}, as in PGV's generated code.
 *
 * @param lt  exclusive upper bound, or null
 * @param lte inclusive upper bound, or null
 * @param gt  exclusive lower bound, or null
 * @param gte inclusive lower bound, or null
 */
record Bounds<T>(T lt, T lte, T gt, T gte) {

  boolean any() {
    return lt != null || lte != null || gt != null || gte != null;
  }

  boolean admits(T value, Comparator<? super T> order) {
    T upper = lt != null ? lt : lte;
    T lower = gt != null ? gt : gte;
    boolean belowUpper = upper == null || (lt != null ? order.compare(value, lt) < 0 : order.compare(value, lte) <= 0);
    boolean aboveLower = lower == null || (gt != null ? order.compare(value, gt) > 0 : order.compare(value, gte) >= 0);
    if (upper != null && lower != null && order.compare(upper, lower) <= 0) {
      return belowUpper || aboveLower;
    }
    return belowUpper && aboveLower;
  }

  /** The bounds as written, e.g. {@code gt 10 lt 5}. */
  String describe(Function<? super T, String> show) {
    List<String> parts = new ArrayList<>();
    if (gt != null) {
      parts.add("gt " + show.apply(gt));
    } else if (gte != null) {
      parts.add("gte " + show.apply(gte));
    }
    if (lt != null) {
      parts.add("lt " + show.apply(lt));
    } else if (lte != null) {
      parts.add("lte " + show.apply(lte));
    }
    return String.join(" ", parts);
  }
}
