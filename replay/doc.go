// Package replay answers an agent's outgoing HTTP requests from fixtures
// declared in the suite file, and fails the case on anything it did not
// expect: strict, offline API replay for agents written in any language.
//
// # Fixture format
//
// A question's "api_interactions" value is either an ordered list of
// interactions, or an object holding that list and the hosts that may be
// reached for real:
//
//	{"allow_hosts": ["api.openai.com"],
//	 "interactions": [
//	   {"expect_request": {"method": "GET", "url": "https://shipping.example/orders",
//	                       "query": {"id": "42"}, "headers": {"X-Region": "eu"}},
//	    "respond_with":   {"status": 200, "headers": {"Content-Type": "application/json"},
//	                       "json": {"status": "ready"}}},
//	   {"expect_request": {"method": "POST", "url": "https://shipping.example/labels",
//	                       "json": {"order": 42, "express": false}},
//	    "respond_with":   {"body_file": "fixtures/label.json"}}]}
//
// expect_request: method (GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS) and
// an absolute http(s) url are required. query maps a name to a string (or
// number or boolean, compared as its JSON text) or to a list of them for
// repeated parameters; a query written in the url joins it. json is the
// expected body as typed JSON (null is a body too); without json the request
// body must be empty. headers lists the only headers compared.
//
// respond_with: status defaults to 200, headers to none (no Content-Type is
// added), and exactly one of json (inline, sent compact; null included) or
// body_file (a JSON file read at load time, relative to the suite file's
// directory unless absolute, its exact bytes sent unchanged).
//
// allow_hosts: exact host names, optionally with a port (then only that
// port); no wildcards or suffixes. Requests to an allowed host go to the
// network unless the host also appears in a declaration: a declared host is
// always answered by replay.
//
// # Matching
//
// A Session holds one case's declarations. Each is consumed once, in order:
// a request to a declared host must match the next unconsumed declaration
// (method, scheme, host, path, query as a multiset, typed JSON body, declared
// headers with case-insensitive names). A mismatch does not consume it.
// Unexpected (undeclared, not allowed host), mismatched and exhausted
// requests, and declarations never requested, make Session.Finish return a
// *Failure, even if the agent rescued the error and answered correctly.
//
// # Transports
//
// Go agents use Session.RoundTripper (or Session.Client). Agents in other
// processes reach replay through a Proxy on 127.0.0.1 that handles plain
// HTTP and HTTPS (CONNECT, intercepted with certificates from a CA generated
// per run whose key never leaves memory); Proxy.Env announces it through
// HTTP_PROXY, HTTPS_PROXY and the usual CA bundle variables (the bundle
// also holds the trust store the agent had, so real HTTPS servers stay
// trusted). A disarmed proxy (no session) passes requests through as if
// there were no proxy: plain HTTP forwarded, HTTPS in a blind tunnel that
// arming closes. Note that Go's
// own http.ProxyFromEnvironment never proxies localhost; fixtures for
// loopback hosts only work with clients that honour the proxy for them.
//
// # Evidence
//
// Finish returns Evidence for response_metadata.api_replay: declared
// interactions, observed requests with their match status and readable
// differences, and missing requests. Credentials (Authorization, cookies,
// API-key, token, secret and password headers, query parameters and JSON
// fields, and bearer-like values) are redacted.
package replay
