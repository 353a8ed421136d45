package provider

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/bedrock"
	"github.com/tmc/langchaingo/llms/googleai"
	"google.golang.org/api/option"

	"github.com/agentevals-go/agentevals/llm"
)

// AzureAPIVersion is the Azure OpenAI data-plane API version evalrun calls
// (a generally available one, with JSON mode).
const AzureAPIVersion = "2024-10-21"

// newGemini builds a Gemini API client over REST. The key travels in the
// x-goog-api-key header, set by our own transport: the Google client
// ignores its API key option when it is given an HTTP client, and the
// HTTP client is how retries and statuses are observed.
func newGemini(s llm.Settings, token string, hc *http.Client) (llms.Model, error) {
	keyed := *hc
	keyed.Transport = headerTransport{next: hc.Transport, name: "x-goog-api-key", value: token}
	opts := []googleai.Option{
		googleai.WithDefaultModel(s.Model),
		googleai.WithHTTPClient(&keyed),
		googleai.WithRest(),
		googleai.WithHarmThreshold(googleai.HarmBlockOnlyHigh),
		func(o *googleai.Options) {
			o.ClientOptions = append(o.ClientOptions, option.WithEndpoint(s.Endpoint()), option.WithAPIKey(token))
		},
	}
	if s.MaxTokens > 0 {
		opts = append(opts, googleai.WithDefaultMaxTokens(s.MaxTokens))
	}
	return googleai.New(context.Background(), opts...)
}

// newBedrock builds a Bedrock runtime client from the standard AWS
// variables: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and
// AWS_SESSION_TOKEN for temporary credentials), AWS_REGION (else
// AWS_DEFAULT_REGION). Nothing else of the environment (profiles, SSO,
// instance roles) is consulted, so the credentials are the ones named. It
// returns the secret key so that errors can be redacted.
func newBedrock(s llm.Settings, keyID string, getenv func(string) string, hc *http.Client) (llms.Model, string, error) {
	secret := strings.TrimSpace(getenv("AWS_SECRET_ACCESS_KEY"))
	region := cmp.Or(strings.TrimSpace(getenv("AWS_REGION")), strings.TrimSpace(getenv("AWS_DEFAULT_REGION")))
	switch {
	case keyID == "" || keyID == "unused" || secret == "":
		return nil, "", fmt.Errorf("%w: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (the bedrock provider signs its requests with them)", llm.ErrInvalidSettings)
	case region == "":
		return nil, "", fmt.Errorf("%w: AWS_REGION is not set (the bedrock provider needs the region of its endpoint)", llm.ErrInvalidSettings)
	}
	o := bedrockruntime.Options{
		Region:      region,
		Credentials: credentials.NewStaticCredentialsProvider(keyID, secret, getenv("AWS_SESSION_TOKEN")),
		HTTPClient:  hc,
		// Our client retries (with its own accounting); the SDK must not.
		Retryer: aws.NopRetryer{},
	}
	if s.BaseURL != "" {
		o.BaseEndpoint = aws.String(s.BaseURL)
	}
	m, err := bedrock.New(bedrock.WithClient(bedrockruntime.New(o)), bedrock.WithModel(s.Model))
	return m, secret, err
}

// headerTransport sets one header on every request (on a copy: a
// RoundTripper must not change the caller's request).
type headerTransport struct {
	next        http.RoundTripper
	name, value string
}

var _ http.RoundTripper = headerTransport{}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(t.name, t.value)
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}
