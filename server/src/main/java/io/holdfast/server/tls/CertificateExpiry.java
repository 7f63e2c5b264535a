package io.holdfast.server.tls;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.holdfast.pki.Pem;
import io.holdfast.pki.PemException;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * When the served certificates expire: per SDS Secret that holds a certificate, the leaf's notAfter, shown in
 * {@code /state} ({@link #state}) and as the gauge {@code holdfast_tls_certificate_expiry_seconds{secret}} (seconds
 * until notAfter, negative once expired). It reads what is served, the snapshot, so it covers every source. Only
 * certificates are read, never keys. Thread-safe: {@link #update} replaces an immutable map.
 */
public final class CertificateExpiry {

  private final Clock clock;
  private final MultiGauge gauge;
  private volatile Map<String, Instant> notAfter = Map.of();

  public CertificateExpiry(MeterRegistry registry, Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.gauge = MultiGauge.builder("holdfast.tls.certificate.expiry")
        .baseUnit("seconds")
        .description("Seconds until the leaf certificate of a served TLS secret expires (negative once expired)")
        .register(registry);
  }

  /** Follows the certificates of {@code snapshot}; a secret no longer served loses its gauge. */
  public void update(XdsSnapshot snapshot) {
    Map<String, Instant> found = new TreeMap<>();
    for (Map.Entry<String, Message> entry : snapshot.ofType(Resources.V3.SECRET_TYPE_URL).entrySet()) {
      Secret secret = (Secret) entry.getValue();
      if (secret.hasTlsCertificate()) {
        try {
          X509Certificate leaf = Pem.certificates(secret.getTlsCertificate().getCertificateChain().getInlineString())
              .get(0);
          found.put(entry.getKey(), leaf.getNotAfter().toInstant());
        } catch (PemException e) {
          // The front end checked it; a snapshot restored from disk is trusted the same way. Nothing to report.
        }
      }
    }
    notAfter = Map.copyOf(found);
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    found.keySet().forEach(name -> rows.add(MultiGauge.Row.of(Tags.of("secret", name), this,
        expiry -> expiry.secondsLeft(name))));
    gauge.register(rows, true);
  }

  /** Per secret, by name: {@code secret}, {@code notAfter} (ISO-8601), {@code daysLeft} (whole days, floor). */
  public List<Map<String, Object>> state() {
    Instant now = clock.instant();
    List<Map<String, Object>> out = new ArrayList<>();
    new TreeMap<>(notAfter).forEach((name, expires) -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("secret", name);
      row.put("notAfter", expires.toString());
      row.put("daysLeft", Math.floorDiv(Duration.between(now, expires).getSeconds(), 86_400L));
      out.add(row);
    });
    return out;
  }

  private double secondsLeft(String name) {
    Instant expires = notAfter.get(name);
    return expires == null ? Double.NaN : Duration.between(clock.instant(), expires).toMillis() / 1000.0;
  }
}
