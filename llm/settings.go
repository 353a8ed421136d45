package llm

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"
	"time"
)

// Provider names accepted in Settings.Provider.
const (
	ProviderOpenAI    = "openai"    // OpenAI and any OpenAI-compatible server
	ProviderAnthropic = "anthropic" // Anthropic Messages API
	ProviderOllama    = "ollama"    // Ollama's /api/chat
	ProviderAzure     = "azure"     // Azure OpenAI: BaseURL is the resource, Model the deployment
	ProviderGemini    = "gemini"    // Google's Gemini API (generativelanguage)
	ProviderBedrock   = "bedrock"   // AWS Bedrock runtime (InvokeModel)
)

// ProviderNames lists the providers for messages and help.
const ProviderNames = "openai, anthropic, ollama, azure, gemini or bedrock"

// Defaults applied by Settings.WithDefaults.
const (
	DefaultTimeout     = 60 * time.Second
	DefaultMaxAttempts = 3
	DefaultBackoff     = time.Second
	DefaultMaxBackoff  = 20 * time.Second
	maxAllowedAttempts = 10
)

// ErrInvalidSettings is wrapped by every settings validation error; callers
// map it to "invalid configuration" (exit 2).
var ErrInvalidSettings = errors.New("invalid model settings")

// Settings name a model behind a provider and how to call it. They are the
// judges-side twin of the suite's judge/llm-agent configuration.
type Settings struct {
	// Provider is one of ProviderNames.
	Provider string
	// Model is the provider's model name; required.
	Model string
	// BaseURL overrides the default endpoint. OpenAI-compatible and Anthropic
	// URLs include the API version path (https://host/v1), as in
	// OPENAI_BASE_URL; an Ollama URL is the server root (http://host:11434).
	// The provider's key, when its variable is set, is sent there as usual;
	// with a base URL the key becomes optional (self-hosted servers).
	BaseURL string
	// Temperature in [0,2]; nil sends 0, so verdicts are as repeatable as the
	// provider allows.
	Temperature *float64
	// MaxTokens bounds the reply; 0 leaves the provider default.
	MaxTokens int
	// Timeout bounds each attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// Retry bounds the retries of rate limits, server errors and timeouts.
	Retry Retry
}

// MaxRateLimitedAttempts bounds the attempts of one call, 429s with
// Retry-After included (those do not count against Retry.MaxAttempts).
const MaxRateLimitedAttempts = 10

// Retry is a bounded exponential backoff: attempt n waits Backoff*2^(n-1),
// at most MaxBackoff (a Retry-After header is honoured up to MaxBackoff).
type Retry struct {
	MaxAttempts int           // total attempts including the first; 0 means DefaultMaxAttempts
	Backoff     time.Duration // 0 means DefaultBackoff
	MaxBackoff  time.Duration // 0 means DefaultMaxBackoff
}

// Validate reports the first problem with the settings, wrapping
// ErrInvalidSettings. It never contacts the provider.
func (s Settings) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidSettings, fmt.Sprintf(format, args...))
	}
	switch s.Provider {
	case ProviderOpenAI, ProviderAnthropic, ProviderOllama, ProviderGemini, ProviderBedrock:
	case ProviderAzure:
		if s.BaseURL == "" {
			return bad("the azure provider needs a base URL: the resource endpoint, https://RESOURCE.openai.azure.com")
		}
	case "":
		return bad("provider is required (%s)", ProviderNames)
	default:
		return bad("unknown provider %q (want %s)", s.Provider, ProviderNames)
	}
	if strings.TrimSpace(s.Model) == "" {
		return bad("model is required")
	}
	if s.BaseURL != "" {
		if err := validateBaseURL(s.BaseURL); err != nil {
			return bad("base URL %q: %v", RedactURL(s.BaseURL), err)
		}
	}
	if t := s.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 2) {
		return bad("temperature %v is outside [0,2]", *t)
	}
	if s.MaxTokens < 0 {
		return bad("max tokens %d is negative", s.MaxTokens)
	}
	if s.Timeout < 0 {
		return bad("timeout %s is negative", s.Timeout)
	}
	r := s.Retry
	if r.MaxAttempts < 0 || r.MaxAttempts > maxAllowedAttempts {
		return bad("retry attempts %d is outside [1,%d]", r.MaxAttempts, maxAllowedAttempts)
	}
	if r.Backoff < 0 || r.MaxBackoff < 0 {
		return bad("retry backoff is negative")
	}
	return nil
}

// validateBaseURL accepts absolute http(s) URLs with a host and no query,
// fragment or unparsable parts. It runs before any client is built because
// langchaingo's Ollama client calls log.Fatal on an unparsable URL.
func validateBaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("want an http:// or https:// URL")
	}
	if u.Host == "" || u.Hostname() == "" {
		return errors.New("no host")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return errors.New("query strings and fragments are not allowed")
	}
	return nil
}

// RedactURL drops any user:password from a URL for messages and evidence.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = url.User("redacted")
	return u.String()
}

// WithDefaults fills the timeout and retry fields left zero with their
// defaults.
func (s Settings) WithDefaults() Settings {
	if s.Timeout == 0 {
		s.Timeout = DefaultTimeout
	}
	if s.Retry.MaxAttempts == 0 {
		s.Retry.MaxAttempts = DefaultMaxAttempts
	}
	if s.Retry.Backoff == 0 {
		s.Retry.Backoff = DefaultBackoff
	}
	if s.Retry.MaxBackoff == 0 {
		s.Retry.MaxBackoff = DefaultMaxBackoff
	}
	return s
}

// CredentialEnv names the environment variable holding the provider's key
// ("" for Ollama, which takes none).
func CredentialEnv(provider string) string {
	switch provider {
	case ProviderOpenAI:
		return "OPENAI_API_KEY"
	case ProviderAnthropic:
		return "ANTHROPIC_API_KEY"
	case ProviderAzure:
		return "AZURE_OPENAI_API_KEY"
	case ProviderGemini:
		return "GEMINI_API_KEY"
	case ProviderBedrock:
		return "AWS_ACCESS_KEY_ID"
	}
	return ""
}

// Endpoint is the base URL the provider's client calls: BaseURL, else the
// provider's public endpoint (Ollama: the local server's default address).
func (s Settings) Endpoint() string {
	switch {
	case s.BaseURL != "":
		return s.BaseURL
	case s.Provider == ProviderAnthropic:
		return "https://api.anthropic.com/v1"
	case s.Provider == ProviderOllama:
		return "http://127.0.0.1:11434"
	case s.Provider == ProviderGemini:
		return "https://generativelanguage.googleapis.com"
	case s.Provider == ProviderBedrock:
		return bedrockEndpoint()
	}
	return "https://api.openai.com/v1"
}

// bedrockEndpoint is the regional Bedrock runtime endpoint, for the
// preflight probe.
func bedrockEndpoint() string {
	region := cmp.Or(os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION"))
	if region == "" {
		return ""
	}
	return "https://bedrock-runtime." + region + ".amazonaws.com"
}
