package agent

import (
	"context"
	"net/http"
)

// clientKey carries the HTTP client of a call.
type clientKey struct{}

// WithHTTPClient returns a context carrying the HTTP client a Go function
// (or llm) agent should use for this case, e.g. one replaying fixtures.
func WithHTTPClient(ctx context.Context, c *http.Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// HTTPClient returns the case's HTTP client placed by WithHTTPClient, or a
// plain client when none was placed. Go function agents call it for every
// outgoing request so that replay can intercept them.
func HTTPClient(ctx context.Context) *http.Client {
	if c, ok := ctx.Value(clientKey{}).(*http.Client); ok && c != nil {
		return c
	}
	return &http.Client{}
}
