package score

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"unicode"
)

// IsURL ("is_url") passes when the whole answer text (read as for
// ExactMatch, so trimmed) is one absolute URL: no white space inside, a
// scheme from the allowed list, and a host (http/https) or an opaque part
// (e.g. "mailto:team@example.com" when mailto is allowed).
//
// Params: "schemes" (non-empty array of non-empty strings, optional,
// default ["http", "https"]; compared case-insensitively).
type IsURL struct {
	// Schemes are the allowed schemes, lower case; nil means http and https.
	Schemes []string
}

var _ Scorer = (*IsURL)(nil)

func newIsURL(raw json.RawMessage) (*IsURL, error) {
	p, err := parseParams(raw, "schemes")
	if err != nil {
		return nil, err
	}
	schemes, _, err := p.texts("schemes")
	if err != nil {
		return nil, err
	}
	for i, s := range schemes {
		schemes[i] = strings.ToLower(s)
	}
	return &IsURL{Schemes: schemes}, nil
}

// Score reports whether the answer text is a URL.
func (c *IsURL) Score(_ context.Context, s Sample) (Assessment, error) {
	got := answerText(s.Output)
	schemes := c.Schemes
	if schemes == nil {
		schemes = []string{"http", "https"}
	}
	if problem := urlProblem(got, schemes); problem != "" {
		return Assessment{Score: 0, Reason: fmt.Sprintf("%s is not a URL: %s", describeText(got), problem)}, nil
	}
	return Assessment{Score: 1, Reason: fmt.Sprintf("output %s is a URL", quote(got))}, nil
}

func urlProblem(text string, schemes []string) string {
	if text == "" {
		return "nothing to check"
	}
	if strings.IndexFunc(text, unicode.IsSpace) >= 0 {
		return "it contains white space"
	}
	u, err := url.Parse(text)
	if err != nil {
		return "it does not parse"
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" {
		return "it has no scheme"
	}
	if !inList(schemes, scheme) {
		return fmt.Sprintf("scheme %s is not one of %s", quote(scheme), strings.Join(quoteAll(schemes), ", "))
	}
	if scheme == "http" || scheme == "https" || u.Opaque == "" {
		if u.Hostname() == "" {
			return "it has no host"
		}
	}
	return ""
}

// IsEmail ("is_email") passes when the whole answer text (read as for
// ExactMatch, so trimmed) is one bare e-mail address (an RFC 5322
// addr-spec such as "team@example.com", no display name or angle
// brackets) whose domain has at least one dot.
//
// Params: none.
type IsEmail struct{}

var _ Scorer = (*IsEmail)(nil)

func newIsEmail(raw json.RawMessage) (*IsEmail, error) {
	if _, err := parseParams(raw); err != nil {
		return nil, err
	}
	return &IsEmail{}, nil
}

// Score reports whether the answer text is an e-mail address.
func (c *IsEmail) Score(_ context.Context, s Sample) (Assessment, error) {
	got := answerText(s.Output)
	if problem := emailProblem(got); problem != "" {
		return Assessment{Score: 0, Reason: fmt.Sprintf("%s is not an e-mail address: %s", describeText(got), problem)}, nil
	}
	return Assessment{Score: 1, Reason: fmt.Sprintf("output %s is an e-mail address", quote(got))}, nil
}

func emailProblem(text string) string {
	if text == "" {
		return "nothing to check"
	}
	addr, err := mail.ParseAddress(text)
	if err != nil || addr.Name != "" || addr.Address != text {
		return "expected a bare address such as name@example.com"
	}
	at := strings.LastIndexByte(text, '@')
	domain := text[at+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "its domain needs a dot between labels"
	}
	return ""
}
