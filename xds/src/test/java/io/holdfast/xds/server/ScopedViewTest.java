package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.xds.snapshot.XdsSnapshot;
import org.junit.jupiter.api.Test;

/** The per-proxy views of an indexed snapshot: their content, versions and what changed between them. */
class ScopedViewTest {

  @Test
  void aViewHoldsOnlyItsScopeAndSharesThePackedResources() {
    IndexedSnapshot full = IndexedSnapshot.of(ProxyAuthorisationTest.twoGateways(1), null);
    IndexedSnapshot a = full.view("shop/web");
    assertThat(a.packedOfType(TypeUrls.SECRET)).containsOnlyKeys("secret-a");
    assertThat(a.packedOfType(TypeUrls.CLUSTER)).containsOnlyKeys("upstream-a", "shared");
    assertThat(a.packed(TypeUrls.CLUSTER, "shared")).isSameAs(full.packed(TypeUrls.CLUSTER, "shared"));
    assertThat(full.view("shop/web")).as("computed once per snapshot").isSameAs(a);
  }

  @Test
  void viewVersionsAreContentHashesStableAcrossSnapshotsThatDoNotTouchThem() {
    IndexedSnapshot first = IndexedSnapshot.of(ProxyAuthorisationTest.twoGateways(1), null);
    IndexedSnapshot a1 = first.view("shop/web");
    IndexedSnapshot b1 = first.view("payments");
    IndexedSnapshot second = IndexedSnapshot.of(ProxyAuthorisationTest.twoGateways(2), first);
    second.viewsFollowing(first);

    assertThat(second.version()).isNotEqualTo(first.version());
    assertThat(second.view("shop/web").version()).isEqualTo(a1.version());
    assertThat(second.view("payments").version()).isNotEqualTo(b1.version());
    // Indexed against the previous view: a delta stream synced to it is planned from what changed.
    assertThat(second.view("shop/web").changedSince(a1.serial(), TypeUrls.SECRET)).isEmpty();
    assertThat(second.view("payments").changedSince(b1.serial(), TypeUrls.SECRET)).containsExactly("secret-b");
    // A fresh index of the same content gives the same view versions (they do not depend on history).
    assertThat(IndexedSnapshot.of(ProxyAuthorisationTest.twoGateways(2), null).view("shop/web").version())
        .isEqualTo(a1.version());
  }

  @Test
  void anUnknownProxySeesAnEmptyViewAndASnapshotWithoutScopesIsNoView() {
    IndexedSnapshot full = IndexedSnapshot.of(ProxyAuthorisationTest.twoGateways(1), null);
    assertThat(full.view("stranger").packedOfType(TypeUrls.LISTENER)).isEmpty();
    assertThat(full.view("other-stranger")).isSameAs(full.view("stranger"));
    assertThat(IndexedSnapshot.of(XdsSnapshot.empty(), null).view("shop/web")).isNull();
  }
}
