package io.holdfast.api;

/**
 * Stable reason codes of {@link Problem}s. They appear in resource statuses, so never rename one; add new ones.
 * Parsing produces the first group, validation the rest.
 */
public final class Reasons {

  // Shape of the document (ModelParser).
  /**
   * Holdfast failed while checking or building the object (a bug, never the user's fault): it is left out, and
   * the failure is counted in {@code holdfast_config_build_failures_total}.
   */
  public static final String INTERNAL_ERROR = "InternalError";
  public static final String UNKNOWN_FIELD = "UnknownField";
  public static final String MISSING_FIELD = "MissingField";
  public static final String WRONG_TYPE = "WrongType";
  public static final String INVALID_VALUE = "InvalidValue";
  public static final String INVALID_DURATION = "InvalidDuration";
  public static final String UNSUPPORTED_API_VERSION = "UnsupportedApiVersion";
  public static final String UNSUPPORTED_KIND = "UnsupportedKind";
  /** Two mutually exclusive fields given together (action, target, selector, redirect path). */
  public static final String CONFLICTING_FIELDS = "ConflictingFields";

  // Values and references (Validator).
  public static final String INVALID_NAME = "InvalidName";
  public static final String DUPLICATE_RESOURCE = "DuplicateResource";
  public static final String PORT_OUT_OF_RANGE = "PortOutOfRange";
  public static final String INVALID_ADDRESS = "InvalidAddress";
  public static final String INVALID_WEIGHT = "InvalidWeight";
  public static final String ZERO_TOTAL_WEIGHT = "ZeroTotalWeight";
  public static final String INVALID_REGEX = "InvalidRegex";
  /**
   * A regex over a bound ({@link InputLimits}): too long, an RE2 program larger than Envoy accepts, or nested
   * counted repetitions RE2 refuses to expand (more than 1000 copies).
   */
  public static final String REGEX_TOO_COMPLEX = "RegexTooComplex";
  public static final String INVALID_PATH = "InvalidPath";
  public static final String INVALID_HEADER_NAME = "InvalidHeaderName";
  public static final String EMPTY_MATCHER = "EmptyMatcher";
  public static final String CONFLICTING_MATCHER = "ConflictingMatcher";
  public static final String INVALID_DOMAIN = "InvalidDomain";
  public static final String DUPLICATE_DOMAIN = "DuplicateDomain";
  public static final String INVALID_STATUS = "InvalidStatus";
  public static final String INVALID_RESPONSE_CODE = "InvalidResponseCode";
  public static final String EMPTY_REDIRECT = "EmptyRedirect";
  public static final String INVALID_RETRY_POLICY = "InvalidRetryPolicy";
  public static final String FIELD_IGNORED = "FieldIgnored";
  /** A CORS policy without origins, or with a bad origin, method, header or max age. */
  public static final String INVALID_CORS_POLICY = "InvalidCorsPolicy";
  /** A fault injection without abort or delay, or with a bad status. */
  public static final String INVALID_FAULT = "InvalidFault";
  /** A percentage outside 0-100. */
  public static final String INVALID_PERCENTAGE = "InvalidPercentage";
  /** A header a route may not add or remove (pseudo-headers, Host) or a bad header value. */
  public static final String INVALID_HEADER_MUTATION = "InvalidHeaderMutation";
  public static final String UPSTREAM_NOT_FOUND = "UpstreamNotFound";
  public static final String UPSTREAM_REJECTED = "UpstreamRejected";
  /** An upstream load-balancing policy no gRPC client implements (RANDOM): they reject the cluster. */
  public static final String GRPC_INCOMPATIBLE = "GrpcIncompatible";
  /** A route or matcher that proxyless gRPC clients cannot match as Envoy does (methods, pseudo-headers). */
  public static final String GRPC_UNMATCHABLE_ROUTE = "GrpcUnmatchableRoute";
  /** A redirect or direct response, which gRPC clients get as {@code non_forwarding_action}. */
  public static final String GRPC_NON_FORWARDING_ROUTE = "GrpcNonForwardingRoute";
  /** A load-balancing policy some gRPC clients replace with ROUND_ROBIN and the oldest reject (LEAST_REQUEST). */
  public static final String GRPC_LOAD_BALANCING_FALLBACK = "GrpcLoadBalancingFallback";
  /** DNS options that cannot work (LOGICAL resolution of several hosts, a non-positive refresh rate). */
  public static final String INVALID_DNS = "InvalidDns";
  public static final String INVALID_CIRCUIT_BREAKERS = "InvalidCircuitBreakers";
  public static final String INVALID_OUTLIER_DETECTION = "InvalidOutlierDetection";
  public static final String INVALID_HEALTH_CHECK = "InvalidHealthCheck";
  public static final String INVALID_UPSTREAM_TLS = "InvalidUpstreamTls";
  /**
   * An Upstream's {@code tls.sds} whose address is not a loopback IP literal with a port, that names no secret, or
   * that is combined with the Upstream's own clientCertificate or trustedCa.
   */
  public static final String INVALID_UPSTREAM_SDS = "InvalidUpstreamSds";
  /** A ring size outside 1 to Envoy's 8M, a minimum above the maximum, or a ring on an upstream not RING_HASH. */
  public static final String INVALID_RING_HASH = "InvalidRingHash";
  /** A connection setting ({@code spec.connection}) out of its range. */
  public static final String INVALID_UPSTREAM_CONNECTION = "InvalidUpstreamConnection";
  /** A route or upstream option proxyless gRPC clients do not implement: ignored by them, or left out of their config. */
  public static final String GRPC_IGNORED_OPTION = "GrpcIgnoredOption";
  /**
   * A setting of a Gateway served to proxyless gRPC servers ({@code grpcServer: true}) without which they could not
   * serve it as written: TLS (gRPC servers take certificates from their own bootstrap's providers, not from
   * Holdfast's secrets) and PROXY protocol (they accept no listener filters).
   */
  public static final String GRPC_SERVER_UNSUPPORTED = "GrpcServerUnsupported";
  /**
   * A VirtualService served to proxyless gRPC servers whose routes require what gRPC servers do not perform
   * (JWT or external authorisation, header rules gRPC refuses): calls to those routes are denied, never let through.
   */
  public static final String GRPC_SERVER_DENIES_ROUTE = "GrpcServerDeniesRoute";
  public static final String DUPLICATE_LISTENER = "DuplicateListener";
  /** Two hosts of one TcpGateway with the same name, or two hosts without SNI names (both default). */
  public static final String DUPLICATE_HOST = "DuplicateHost";
  public static final String VIRTUAL_SERVICE_NOT_FOUND = "VirtualServiceNotFound";
  public static final String VIRTUAL_SERVICE_REJECTED = "VirtualServiceRejected";
  public static final String NO_VIRTUAL_SERVICES = "NoVirtualServices";
  // TLS (sslConfig and the material it names).
  /** The Secret or PEM file an sslConfig names is not there. */
  public static final String SECRET_NOT_FOUND = "SecretNotFound";
  /** TLS material that does not parse: no certificate, not PEM, an encrypted or unknown key, an entry missing. */
  public static final String INVALID_CERTIFICATE = "InvalidCertificate";
  /** The private key does not belong to the first (leaf) certificate of the chain. */
  public static final String KEY_MISMATCH = "KeyMismatch";
  /** A certificate that has expired or is not valid yet: served anyway (clients decide), but reported. */
  public static final String CERTIFICATE_NOT_VALID_NOW = "CertificateNotValidNow";
  /** Two VirtualServices ask for one TLS server name (or both for the default chain) on one HTTPS Gateway. */
  public static final String DUPLICATE_SNI_DOMAIN = "DuplicateSniDomain";
  /** A TLS server name that SNI cannot carry (a port, a suffix wildcard, an IP address). */
  public static final String INVALID_SNI_DOMAIN = "InvalidSniDomain";
  /** An HTTPS Gateway selects a VirtualService without sslConfig: it is not served there. */
  public static final String MISSING_SSL_CONFIG = "MissingSslConfig";

  // RouteTable delegation (Validator).
  /** A delegating route whose match is not a prefix (exact and regex cannot be narrowed by a RouteTable). */
  public static final String INVALID_DELEGATE_MATCH = "InvalidDelegateMatch";
  /** A delegate ref names a RouteTable that does not exist: the delegating object is rejected. */
  public static final String ROUTE_TABLE_NOT_FOUND = "RouteTableNotFound";
  /** A delegated RouteTable is not served under this route (rejected, or rejected for this parent): a warning. */
  public static final String ROUTE_TABLE_REJECTED = "RouteTableRejected";
  /** A delegate selector that matches no RouteTable: a warning. */
  public static final String NO_ROUTE_TABLES = "NoRouteTables";
  /** A RouteTable route whose path does not stay under the delegating route's prefix. */
  public static final String PREFIX_VIOLATION = "PrefixViolation";
  /**
   * A RouteTable handed more different inherited paths (Gloo's {@code inheritablePathMatchers}) by the routes that
   * delegate to it than Holdfast checks one table under.
   */
  public static final String TOO_MANY_INHERITED_PATHS = "TooManyInheritedPaths";
  /** A RouteTable route delegating back to a RouteTable already on the delegation path. */
  public static final String DELEGATION_CYCLE = "DelegationCycle";
  /** A RouteTable more RouteTables deep under a VirtualService than {@link InputLimits#maxDelegationDepth()}. */
  public static final String DELEGATION_TOO_DEEP = "DelegationTooDeep";
  /** A VirtualService with more routes after flattening than {@link InputLimits#maxRoutesPerVirtualHost()}. */
  public static final String TOO_MANY_ROUTES = "TooManyRoutes";
  /** A served RouteTable that no served VirtualService reaches: its routes are not served (a note). */
  public static final String NOT_DELEGATED = "NotDelegated";

  // Tenancy (AccessPolicy): what one namespace's objects may reach.
  /**
   * A reference to another namespace's object that no ReferenceGrant there allows: always for a Secret, for an
   * Upstream or RouteTable under {@code --cross-namespace-refs=grant}. The message names the grant that would.
   */
  public static final String REF_NOT_PERMITTED = "RefNotPermitted";
  /** A static upstream address in a denied network (loopback, link-local, metadata, {@code --upstream-deny-cidr}). */
  public static final String ADDRESS_NOT_PERMITTED = "AddressNotPermitted";
  /** A listener port outside {@code --listener-port-range} or in {@code --listener-reserved-ports}. */
  public static final String PORT_NOT_PERMITTED = "PortNotPermitted";

  // Endpoints.
  /**
   * A kube Upstream with a {@code selector} whose Service exists but whose pods' labels the source cannot read (in
   * Kubernetes mode: no RBAC rule for pods): it gets no endpoints rather than the whole Service's (a warning).
   */
  public static final String POD_LABELS_UNAVAILABLE = "PodLabelsUnavailable";

  // Pipeline (LastGoodValidator).
  /** A rejected resource whose last accepted version is still being served. */
  public static final String SERVING_LAST_ACCEPTED = "ServingLastAccepted";

  private Reasons() {
  }
}
