package dashboard

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/net/html"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.ReleaseMode)
	os.Exit(m.Run())
}

// backends are the databases every page test runs against.
var backends = []string{"postgres", "sqlite"}

// MustOpenDBs returns a migrated database of the backend twice: a
// read-write connection for seeding and a read-only one for the dashboard.
func MustOpenDBs(tb testing.TB, backend string) (rw, ro *models.DB) {
	tb.Helper()
	var url string
	switch backend {
	case "postgres":
		url = testdb.PostgresURL(tb)
	case "sqlite":
		url = testdb.SQLiteURL(tb)
	default:
		tb.Fatalf("unknown backend %q", backend)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rw, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		tb.Fatalf("open %s: %v", backend, err)
	}
	tb.Cleanup(func() { rw.Close() })
	if err := schema.Migrate(ctx, rw); err != nil {
		tb.Fatalf("migrate %s: %v", backend, err)
	}
	ro, err = models.Open(ctx, url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		tb.Fatalf("open %s read-only: %v", backend, err)
	}
	tb.Cleanup(func() { ro.Close() })
	return rw, ro
}

// MustServe starts the dashboard over db under mount.
func MustServe(tb testing.TB, db *models.DB, mount string) *httptest.Server {
	tb.Helper()
	s, err := New(Config{DB: db, MountPath: mount})
	if err != nil {
		tb.Fatalf("new server: %v", err)
	}
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	return ts
}

// response is a fetched page: status, headers, body and parsed document.
type response struct {
	Status int
	Header http.Header
	Body   string
	Doc    *html.Node
}

func fetch(tb testing.TB, method, url string) response {
	tb.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	r := response{Status: res.StatusCode, Header: res.Header, Body: string(body)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		if r.Doc, err = html.Parse(strings.NewReader(r.Body)); err != nil {
			tb.Fatalf("parse %s: %v", url, err)
		}
	}
	return r
}

// mustGet fetches a page and fails unless it answers want.
func mustGet(tb testing.TB, url string, want int) response {
	tb.Helper()
	r := fetch(tb, http.MethodGet, url)
	if r.Status != want {
		tb.Fatalf("GET %s: status %d, want %d\n%s", url, r.Status, want, r.Body)
	}
	return r
}

// selectAll returns the nodes matching a simple CSS selector: descendant
// steps separated by spaces, each a tag and/or .class, #id and [attr] or
// [attr=value] parts.
func selectAll(n *html.Node, selector string) []*html.Node {
	steps := strings.Fields(selector)
	current := []*html.Node{n}
	for _, step := range steps {
		var next []*html.Node
		seen := map[*html.Node]bool{}
		for _, root := range current {
			walk(root, func(c *html.Node) {
				if c != root && matches(c, step) && !seen[c] {
					seen[c] = true
					next = append(next, c)
				}
			})
		}
		current = next
	}
	return current
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func matches(n *html.Node, step string) bool {
	if n.Type != html.ElementNode {
		return false
	}
	rest := step
	tag := rest
	if i := strings.IndexAny(rest, ".#["); i >= 0 {
		tag, rest = rest[:i], rest[i:]
	} else {
		rest = ""
	}
	if tag != "" && n.Data != tag {
		return false
	}
	for rest != "" {
		var part string
		end := strings.IndexAny(rest[1:], ".#[")
		if rest[0] == '[' {
			end = strings.IndexByte(rest, ']')
			part, rest = rest[1:end], rest[end+1:]
			name, value, hasValue := strings.Cut(part, "=")
			v, ok := attr(n, name)
			if !ok || (hasValue && v != strings.Trim(value, `"`)) {
				return false
			}
			continue
		}
		if end < 0 {
			part, rest = rest, ""
		} else {
			part, rest = rest[:end+1], rest[end+1:]
		}
		switch part[0] {
		case '.':
			cls, _ := attr(n, "class")
			if !contains(strings.Fields(cls), part[1:]) {
				return false
			}
		case '#':
			if id, _ := attr(n, "id"); id != part[1:] {
				return false
			}
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

// text is the text content of a node.
func text(n *html.Node) string {
	var sb strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	})
	return sb.String()
}

// mustSelect returns the matches of selector and fails when there are none.
func mustSelect(tb testing.TB, doc *html.Node, selector string) []*html.Node {
	tb.Helper()
	nodes := selectAll(doc, selector)
	if len(nodes) == 0 {
		tb.Fatalf("no element matches %q", selector)
	}
	return nodes
}
