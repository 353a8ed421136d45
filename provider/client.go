package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

// Client calls one model through langchaingo with per-attempt timeouts and
// bounded retries of rate limits, server errors and timeouts (langchaingo
// v0.1.14 retries nothing itself). Every call is a fresh conversation. A
// Client is safe for concurrent use.
type Client struct {
	settings llm.Settings
	model    llms.Model
	secret   string
	// sleep waits between attempts; it returns early with ctx's error.
	sleep func(ctx context.Context, d time.Duration) error
	// limiter paces the calls to the provider (nil: not paced).
	limiter *llm.Limiter
	// prices prices the calls (Options.Prices); nil means the vendored
	// catalog alone.
	prices *prices.Catalog
}

// NewClient validates the settings, reads the provider's credential from the
// environment and builds the langchaingo client. Errors wrap
// ErrInvalidSettings.
func NewClient(s llm.Settings, o Options) (*Client, error) {
	m, secret, err := newModel(s, o)
	if err != nil {
		return nil, err
	}
	return &Client{settings: s.WithDefaults(), model: m, secret: secret, sleep: llm.Sleep, limiter: o.Limiter, prices: o.Prices}, nil
}

// Settings returns the client's settings with defaults applied.
func (c *Client) Settings() llm.Settings { return c.settings }

// Reply is a model's text answer with its usage.
type Reply struct {
	Text  string
	Usage score.Usage
	// StopReason is the provider's finish reason ("length" means the reply
	// was cut at MaxTokens); Ollama never reports one.
	StopReason string
	// Attempts records every attempt, failed ones included.
	Attempts []Attempt
}

// Attempt is the evidence of one request to the provider.
type Attempt struct {
	Attempt    int     `json:"attempt"`
	Kind       string  `json:"kind"`             // "ok" or an error kind
	Status     int     `json:"status,omitempty"` // HTTP status when one was seen
	Error      string  `json:"error,omitempty"`  // redacted provider error text
	DurationMS float64 `json:"duration_ms"`
	WaitMS     float64 `json:"wait_ms,omitempty"` // backoff before the next attempt

	url string // the endpoint requested, without credentials or query
}

// retryable kinds are transient: rate limits, server errors, timeouts and
// an unreachable server (a local server still starting, a dropped
// connection) get the bounded retries.
func retryable(kind string) bool {
	return kind == score.KindRateLimited || kind == score.KindServerError || kind == score.KindTimeout || kind == score.KindUnreachable
}

// Chat is Generate with a conversation: the system message, then history
// (user and assistant messages, oldest first) as the provider's chat
// messages (provider/chat.go).
func (c *Client) Chat(ctx context.Context, system string, history []llm.ChatMessage, jsonMode bool) (Reply, error) {
	msgs := chatMessages(system, history)
	opts := []llms.CallOption{llms.WithTemperature(0)}
	if t := c.settings.Temperature; t != nil {
		opts[0] = llms.WithTemperature(*t)
	}
	if c.settings.MaxTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(c.settings.MaxTokens))
	}
	if jsonMode {
		opts = append(opts, llms.WithJSONMode())
	}
	var attempts []Attempt
	spent := 0 // attempts counted against MaxAttempts
	for n := 1; ; n++ {
		if err := c.limiter.Wait(ctx); err != nil {
			attempts = append(attempts, Attempt{Attempt: n, Kind: score.KindCanceled, Error: err.Error()})
			return Reply{Attempts: attempts}, c.failure(attempts[len(attempts)-1], attempts)
		}
		reply, at, hint := c.attempt(ctx, n, msgs, opts)
		c.limiter.Observe(at.Kind == score.KindRateLimited, hint, at.Kind == "ok")
		attempts = append(attempts, at)
		if at.Kind == "ok" {
			reply.Attempts = attempts
			return reply, nil
		}
		// A 429 that says when to come back is the provider pacing us,
		// not a failure: it costs no attempt, up to llm.MaxRateLimitedAttempts.
		if at.Kind != score.KindRateLimited || hint == 0 {
			spent++
		}
		if !retryable(at.Kind) || spent >= c.settings.Retry.MaxAttempts || n >= llm.MaxRateLimitedAttempts {
			return Reply{Usage: reply.Usage, Attempts: attempts}, c.failure(at, attempts)
		}
		wait := c.backoff(n, hint)
		attempts[len(attempts)-1].WaitMS = ms(wait)
		if err := c.sleep(ctx, wait); err != nil {
			attempts = append(attempts, Attempt{Attempt: n + 1, Kind: score.KindCanceled, Error: err.Error()})
			return Reply{Attempts: attempts}, c.failure(attempts[len(attempts)-1], attempts)
		}
	}
}

// attempt makes one request under its own timeout and classifies the
// result; hint is the server's Retry-After on a 429.
func (c *Client) attempt(ctx context.Context, n int, msgs []llms.MessageContent, opts []llms.CallOption) (Reply, Attempt, time.Duration) {
	rec := &statusRecord{}
	actx, cancel := context.WithTimeout(withStatusRecord(ctx, rec), c.settings.Timeout)
	defer cancel()
	start := time.Now()
	resp, err := c.generate(actx, msgs, opts)
	at := Attempt{Attempt: n, DurationMS: ms(time.Since(start))}
	status, retryAfter := rec.get()
	at.Status = status
	at.url = rec.endpoint()
	var reply Reply
	if err == nil && resp != nil {
		reply = c.read(resp)
	}
	switch {
	case ctx.Err() != nil:
		at.Kind, at.Error = score.KindCanceled, ctx.Err().Error()
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		// OpenAI's client flattens timeouts into plain strings, so the
		// attempt's own context is the reliable witness.
		at.Kind, at.Error = score.KindTimeout, fmt.Sprintf("no reply within %s", c.settings.Timeout)
		if err != nil {
			at.Error += ": " + redact(err.Error(), c.secret)
		}
	case err != nil && at.Status == 0 && rec.transportErr() != nil:
		// langchaingo's OpenAI client flattens this into "failed to reach
		// API server"; the transport's own error says why.
		at.Kind, at.Error = score.KindUnreachable, err.Error()
		if te := rec.transportErr().Error(); !strings.Contains(at.Error, te) {
			at.Error += ": " + te
		}
		at.Error = redact(at.Error, c.secret)
	case err != nil:
		if at.Status == 0 {
			at.Status = statusFromText(err.Error())
		}
		at.Kind, at.Error = kindForStatus(at.Status), redact(err.Error(), c.secret)
	case at.Status >= 400:
		// Ollama turns an error status with an empty body into success.
		at.Kind, at.Error = kindForStatus(at.Status), fmt.Sprintf("HTTP %d with no error text", at.Status)
	case resp == nil || strings.TrimSpace(reply.Text) == "":
		at.Kind, at.Error = score.KindEmptyReply, "the provider returned no text"
	default:
		at.Kind = "ok"
	}
	if at.Kind != score.KindRateLimited {
		retryAfter = 0
	}
	return reply, at, retryAfter
}

// read extracts the text and usage. Anthropic returns one choice per content
// block, each repeating the usage, so texts are joined and usage read once.
func (c *Client) read(resp *llms.ContentResponse) Reply {
	if len(resp.Choices) == 0 {
		return Reply{}
	}
	var r Reply
	if c.settings.Provider == llm.ProviderAnthropic {
		parts := make([]string, 0, len(resp.Choices))
		for _, ch := range resp.Choices {
			parts = append(parts, ch.Content)
		}
		r.Text = strings.Join(parts, "")
	} else {
		r.Text = resp.Choices[0].Content
	}
	r.Usage = usageFrom(c.settings, c.prices, resp.Choices[0].GenerationInfo)
	r.StopReason = resp.Choices[len(resp.Choices)-1].StopReason
	return r
}

func (c *Client) backoff(n int, hint time.Duration) time.Duration {
	r := c.settings.Retry
	d := r.Backoff << (n - 1)
	if d <= 0 || d > r.MaxBackoff {
		d = r.MaxBackoff
	}
	if hint > 0 { // the provider said when: no sooner, and no later either
		d = min(hint, r.MaxBackoff)
	}
	return d
}

// failure builds the error of a call that ended with last: its message
// names the endpoint requested (without credentials) and, where a common
// misconfiguration explains the failure, a hint; the details keep both
// and every attempt.
func (c *Client) failure(last Attempt, attempts []Attempt) *score.Error {
	s := c.settings
	details := map[string]any{
		"provider": s.Provider,
		"model":    s.Model,
		"attempts": attempts,
	}
	if s.BaseURL != "" {
		details["base_url"] = llm.RedactURL(s.BaseURL)
	}
	endpoint := ""
	for _, at := range attempts {
		if at.url != "" {
			endpoint = at.url
		}
	}
	where := ""
	if endpoint != "" {
		details["url"] = endpoint
		where = " from " + endpoint
	}
	msg := fmt.Sprintf("%s %s: %s%s (after %d attempt(s))", s.Provider, s.Model, last.Error, where, len(attempts))
	if hint := c.hint(last); hint != "" {
		details["hint"] = hint
		msg += "; hint: " + hint
	}
	return &score.Error{Kind: last.Kind, Message: msg, Details: details}
}

// hint explains a failure that usually comes from the base URL: a 404 from
// an OpenAI-compatible server whose base URL lacks the /v1 its API lives
// under, or from an Ollama base URL that is not the server root.
func (c *Client) hint(last Attempt) string {
	s := c.settings
	if last.Status != http.StatusNotFound || s.BaseURL == "" {
		return ""
	}
	path := ""
	if u, err := url.Parse(s.BaseURL); err == nil {
		path = strings.TrimRight(u.Path, "/")
	}
	switch {
	case s.Provider == llm.ProviderOpenAI && !strings.HasSuffix(path, "/v1"):
		return "OpenAI-compatible base URLs usually end in /v1"
	case s.Provider == llm.ProviderOllama && path != "":
		return "an Ollama base URL is the server root (http://host:11434), without a path"
	}
	return ""
}

// generate calls the model client, turning a panic inside it (a client
// that dereferences a reply it did not expect, such as an empty one) into
// an error, so one odd reply fails its call rather than the run.
func (c *Client) generate(ctx context.Context, msgs []llms.MessageContent, opts []llms.CallOption) (resp *llms.ContentResponse, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, fmt.Errorf("the %s client failed on the reply: %v", c.settings.Provider, p)
		}
	}()
	return c.model.GenerateContent(ctx, msgs, opts...)
}

func kindForStatus(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return score.KindRateLimited
	case status >= 500 && status <= 599:
		return score.KindServerError
	}
	return score.KindProviderError
}

var statusPattern = regexp.MustCompile(`status code: (\d{3})`)

// statusFromText finds the HTTP status langchaingo puts only in its error
// text ("API returned unexpected status code: 429: …"); 0 when absent.
func statusFromText(s string) int {
	m := statusPattern.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// userinfoPattern finds the user information of URLs in provider errors.
var userinfoPattern = regexp.MustCompile(`(?i)\b(https?://)[^/@\s"]+@`)

// redact removes the credential, the user information of URLs (net/http
// masks only the password) and whatever else the sanitizer recognises as
// a credential (key shapes such as sk-…, api_key=… pairs, bearer tokens).
func redact(s, secret string) string {
	if secret != "" {
		s = strings.ReplaceAll(s, secret, sanitize.Redacted)
	}
	s = userinfoPattern.ReplaceAllString(s, "$1")
	return sanitize.String(s)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// statusRecord captures the HTTP status of an attempt's response. The
// langchaingo clients never expose it, so statusTransport records it into
// the record carried by the request's context.
type statusRecord struct {
	mu         sync.Mutex
	status     int
	retryAfter time.Duration
	url        string // last URL requested, without credentials or query
	err        error  // the transport's error when no response came back
}

func (r *statusRecord) get() (int, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.retryAfter
}

func (r *statusRecord) endpoint() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.url
}

func (r *statusRecord) transportErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// endpointOf is the request's method and URL for messages: no user
// information, query or fragment, which may carry credentials.
func endpointOf(req *http.Request) string {
	u := *req.URL
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return req.Method + " " + u.String()
}

type statusKey struct{}

func withStatusRecord(ctx context.Context, r *statusRecord) context.Context {
	return context.WithValue(ctx, statusKey{}, r)
}

// statusTransport wraps the HTTP transport to record response statuses.
type statusTransport struct{ next http.RoundTripper }

var _ http.RoundTripper = (*statusTransport)(nil)

// RoundTrip forwards the request and records the response status.
func (t *statusTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	rec, ok := req.Context().Value(statusKey{}).(*statusRecord)
	if ok {
		rec.mu.Lock()
		rec.url = endpointOf(req)
		rec.mu.Unlock()
	}
	resp, err := next.RoundTrip(req)
	if ok && err != nil && req.Context().Err() == nil {
		rec.mu.Lock()
		rec.err = err
		rec.mu.Unlock()
	}
	if ok && err == nil {
		rec.mu.Lock()
		rec.status = resp.StatusCode
		rec.retryAfter = llm.RetryAfter(resp.Header, time.Now())
		rec.mu.Unlock()
	}
	return resp, err
}
