package provider

import (
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
)

// Options are the process-level inputs of a client: where credentials come
// from and the HTTP client to use. The zero value reads os.Getenv and uses a
// fresh http.Client.
type Options struct {
	// Getenv looks up credentials; nil means os.Getenv.
	Getenv func(string) string
	// HTTPClient is the base client: its Transport is wrapped (never
	// modified) and its Timeout ignored, since Settings.Timeout bounds each
	// attempt. nil means http.DefaultTransport.
	HTTPClient *http.Client
	// Limiter, when set, paces the client's requests together with every
	// other client sharing it (one limiter per provider endpoint).
	Limiter *llm.Limiter
	// Prices, when set, prices the client's calls: the user's own prices
	// over the vendored catalog (prices.Load). nil means the catalog alone.
	Prices *prices.Catalog
}

// newModel validates s and builds the langchaingo model with every option
// passed explicitly, so the environment cannot redirect the client. It
// returns the credential so that errors can be redacted.
func newModel(s llm.Settings, o Options) (llms.Model, string, error) {
	if err := s.Validate(); err != nil {
		return nil, "", err
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	base := o.HTTPClient
	if base == nil {
		base = &http.Client{}
	}
	hc := &http.Client{
		Transport:     &statusTransport{next: base.Transport},
		CheckRedirect: base.CheckRedirect,
		Jar:           base.Jar,
	}
	env := llm.CredentialEnv(s.Provider)
	token := strings.TrimSpace(getenv(env))
	if token == "" && env != "" {
		// Only OpenAI- and Anthropic-compatible servers are self-hosted;
		// Azure, Gemini and Bedrock always authenticate.
		selfHosted := s.BaseURL != "" && (s.Provider == llm.ProviderOpenAI || s.Provider == llm.ProviderAnthropic)
		if !selfHosted {
			return nil, "", fmt.Errorf("%w: %s is not set (the %s provider needs an API key from the environment)",
				llm.ErrInvalidSettings, env, s.Provider)
		}
		// A self-hosted compatible server often needs no key, but the
		// clients refuse an empty one.
		token = "unused"
	}
	var (
		m   llms.Model
		err error
	)
	switch s.Provider {
	case llm.ProviderOpenAI:
		opts := []openai.Option{openai.WithToken(token), openai.WithModel(s.Model), openai.WithHTTPClient(hc)}
		opts = append(opts, openai.WithBaseURL(s.Endpoint()))
		m, err = openai.New(opts...)
	case llm.ProviderAnthropic:
		opts := []anthropic.Option{anthropic.WithToken(token), anthropic.WithModel(s.Model), anthropic.WithHTTPClient(hc)}
		opts = append(opts, anthropic.WithBaseURL(s.Endpoint()))
		m, err = anthropic.New(opts...)
	case llm.ProviderOllama:
		m, err = ollama.New(ollama.WithModel(s.Model), ollama.WithHTTPClient(hc),
			ollama.WithServerURL(s.Endpoint()))
	case llm.ProviderAzure:
		m, err = openai.New(openai.WithToken(token), openai.WithModel(s.Model), openai.WithHTTPClient(hc),
			openai.WithBaseURL(s.Endpoint()), openai.WithAPIType(openai.APITypeAzure), openai.WithAPIVersion(AzureAPIVersion))
	case llm.ProviderGemini:
		m, err = newGemini(s, token, hc)
	case llm.ProviderBedrock:
		var secret string
		m, secret, err = newBedrock(s, token, getenv, hc)
		token = secret
	}
	if err != nil {
		return nil, "", fmt.Errorf("%w: %s client: %s", llm.ErrInvalidSettings, s.Provider, redact(err.Error(), token))
	}
	if token == "unused" {
		token = ""
	}
	return m, token, nil
}
