import Testing

/// Every MarqueeHTTP suite runs inside this one, one test at a time: some
/// compare this process's thread and descriptor counts before and after a
/// connection, which another test's server would disturb.
@Suite(.serialized) enum HTTPServerSuite {}
