package dashboard

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// maxLoggedQueryKeys bounds how many query keys an access log line names.
const maxLoggedQueryKeys = 16

// accessLog is the first middleware: after the request it logs one line
// with the method, the path with the query's keys only (values may hold
// secrets or personal data), the status, the duration and the client
// address. The client is gin's ClientIP, which believes X-Forwarded-For
// only when the connection comes from one of Config.TrustedProxies.
//
// A request that failed on the server's side is logged once, on this line,
// as "request failed" at error level with its cause: a page cut off by the
// time budget after its status was sent says so on the same line.
func (s *Server) accessLog(c *gin.Context) {
	start := time.Now()
	c.Next()
	attrs := []any{"method", c.Request.Method, "path", logPath(c.Request.URL),
		"status", c.Writer.Status(), "duration", time.Since(start), "client", c.ClientIP()}
	if cause, left := c.Get(clientLeftKey); left {
		attrs[5] = statusClientLeft
		s.log.Info("client left before the answer", append(attrs, "cause", fmt.Sprint(cause))...)
		return
	}
	if cause, failed := c.Get(failureKey); failed {
		s.log.Error("request failed", append(attrs, "cause", cause)...)
		return
	}
	s.log.Info("request", attrs...)
}

// clientLeftKey holds, in the gin context, why a request stopped when its
// client left (logged as statusClientLeft, not as a failure).
const clientLeftKey = "dashboard.clientLeft"

// statusClientLeft is the status logged for a request whose client left
// before the answer (the "client closed request" of common proxies); it is
// never sent.
const statusClientLeft = 499

// failureKey holds, in the gin context, the cause of a server-side failure
// for the access line.
const failureKey = "dashboard.failure"

// readOnly refuses every method but GET and HEAD with a 405 page.
func (s *Server) readOnly(c *gin.Context) {
	if m := c.Request.Method; m == http.MethodGet || m == http.MethodHead {
		c.Next()
		return
	}
	c.Header("Allow", "GET, HEAD")
	s.writeError(c, &serverError{status: http.StatusMethodNotAllowed,
		public: "This dashboard is read-only: it answers GET and HEAD requests only."})
	c.Abort()
}

// logPath is the request path followed by the sorted, distinct names of its
// query parameters ("/evaluations/?status&suite"); values are left out.
func logPath(u *url.URL) string {
	if u.RawQuery == "" {
		return u.Path
	}
	q, _ := url.ParseQuery(u.RawQuery) // a malformed pair is left out, the rest still logged
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	more := ""
	if len(keys) > maxLoggedQueryKeys {
		keys, more = keys[:maxLoggedQueryKeys], "&…"
	}
	return u.Path + "?" + strings.Join(keys, "&") + more
}
