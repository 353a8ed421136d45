package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// gemini calls the Gemini API's streamGenerateContent over REST (one
// request, the whole reply as a JSON array of chunks) with net/http: the
// same request and reading as Google's Go client, without linking it and
// the gRPC and cloud packages it initialises at every start of evalrun.
type gemini struct {
	hc       *http.Client
	endpoint string
	model    string
	// maxTokens is the default output bound when a call sets none.
	maxTokens int
}

var _ llms.Model = (*gemini)(nil)

// Defaults of the Go client evalrun used before (langchaingo's googleai),
// kept so that a judge's requests stay the same.
const (
	geminiMaxTokens = 2048
	geminiTopP      = 0.95
	geminiTopK      = 3
	// geminiHarmThreshold is BLOCK_ONLY_HIGH for each harm category.
	geminiHarmThreshold = 3
	geminiMaxReply      = 64 << 20
)

// geminiHarmCategories are dangerous content, harassment, hate speech and
// sexually explicit, in that order.
var geminiHarmCategories = [...]int{10, 7, 8, 9}

type geminiPart struct {
	Text string `json:"text"`
}

type geminiContent struct {
	Parts []geminiPart `json:"parts"`
	Role  string       `json:"role,omitempty"`
}

type geminiSafety struct {
	Category  int `json:"category"`
	Threshold int `json:"threshold"`
}

type geminiConfig struct {
	CandidateCount   int     `json:"candidateCount"`
	MaxOutputTokens  int     `json:"maxOutputTokens"`
	Temperature      float64 `json:"temperature"`
	TopP             float64 `json:"topP"`
	TopK             int     `json:"topK"`
	ResponseMimeType string  `json:"responseMimeType,omitempty"`
}

type geminiRequest struct {
	Model             string          `json:"model"`
	SystemInstruction *geminiContent  `json:"systemInstruction,omitempty"`
	Contents          []geminiContent `json:"contents"`
	SafetySettings    []geminiSafety  `json:"safetySettings"`
	GenerationConfig  geminiConfig    `json:"generationConfig"`
}

// geminiChunk is one element of the reply's array.
type geminiChunk struct {
	Candidates []struct {
		Content struct {
			Parts []struct {
				Text *string `json:"text"`
			} `json:"parts"`
		} `json:"content"`
		FinishReason json.RawMessage `json:"finishReason"`
		Index        int             `json:"index"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason json.RawMessage `json:"blockReason"`
	} `json:"promptFeedback"`
	UsageMetadata *struct {
		PromptTokenCount     int64 `json:"promptTokenCount"`
		CandidatesTokenCount int64 `json:"candidatesTokenCount"`
		TotalTokenCount      int64 `json:"totalTokenCount"`
	} `json:"usageMetadata"`
}

func (g *gemini) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, g, prompt, options...)
}

// GenerateContent sends the messages (a system message becomes the
// system instruction) and joins the streamed chunks of each candidate.
func (g *gemini) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	opts := llms.CallOptions{MaxTokens: g.maxTokens}
	for _, o := range options {
		o(&opts)
	}
	req := geminiRequest{Model: "models/" + g.model, GenerationConfig: geminiConfig{CandidateCount: 1,
		MaxOutputTokens: opts.MaxTokens, Temperature: opts.Temperature, TopP: geminiTopP, TopK: geminiTopK}}
	if req.GenerationConfig.MaxOutputTokens <= 0 {
		req.GenerationConfig.MaxOutputTokens = geminiMaxTokens
	}
	if opts.JSONMode {
		req.GenerationConfig.ResponseMimeType = "application/json"
	}
	for _, c := range geminiHarmCategories {
		req.SafetySettings = append(req.SafetySettings, geminiSafety{Category: c, Threshold: geminiHarmThreshold})
	}
	for _, m := range messages {
		c := geminiContent{}
		for _, p := range m.Parts {
			t, ok := p.(llms.TextContent)
			if !ok {
				return nil, fmt.Errorf("gemini: only text parts are sent, got %T", p)
			}
			c.Parts = append(c.Parts, geminiPart{Text: t.Text})
		}
		switch m.Role {
		case llms.ChatMessageTypeSystem:
			c.Role = "system"
			req.SystemInstruction = &c
			continue
		case llms.ChatMessageTypeAI:
			c.Role = "model"
		case llms.ChatMessageTypeHuman, llms.ChatMessageTypeGeneric, llms.ChatMessageTypeTool:
			c.Role = "user"
		default:
			return nil, fmt.Errorf("role %v not supported", m.Role)
		}
		req.Contents = append(req.Contents, c)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	u := strings.TrimRight(g.endpoint, "/") + "/v1beta/models/" + url.PathEscape(g.model) + ":streamGenerateContent?%24alt=json%3Benum-encoding%3Dint"
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	res, err := g.hc.Do(hreq)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, geminiMaxReply))
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 300 {
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(raw, &e)
		return nil, errors.New(strings.TrimSpace(fmt.Sprintf("googleapi: Error %d: %s", res.StatusCode, e.Error.Message)))
	}
	var chunks []geminiChunk
	if err := json.Unmarshal(raw, &chunks); err != nil {
		return nil, fmt.Errorf("gemini: want a JSON array of responses: %w", err)
	}
	return geminiResponse(chunks)
}

// geminiResponse joins the chunks: each candidate's text in order, its
// last finish reason, the last usage counts. A blocked prompt or
// candidate is an error, as in Google's client.
func geminiResponse(chunks []geminiChunk) (*llms.ContentResponse, error) {
	type candidate struct {
		text   strings.Builder
		finish string
	}
	var cands []*candidate
	byIndex := map[int]*candidate{}
	var info map[string]any
	for _, ch := range chunks {
		if ch.PromptFeedback != nil {
			if r := enumName("BlockReason", ch.PromptFeedback.BlockReason, geminiBlockReasons); r != "BlockReasonUnspecified" {
				return nil, fmt.Errorf("blocked: prompt: %s", r)
			}
		}
		for _, c := range ch.Candidates {
			finish := enumName("FinishReason", c.FinishReason, geminiFinishReasons)
			if finish == "FinishReasonSafety" || finish == "FinishReasonRecitation" {
				return nil, fmt.Errorf("blocked: candidate: %s", finish)
			}
			cand := byIndex[c.Index]
			if cand == nil {
				cand = &candidate{}
				byIndex[c.Index] = cand
				cands = append(cands, cand)
			}
			for _, p := range c.Content.Parts {
				if p.Text != nil {
					cand.text.WriteString(*p.Text)
				}
			}
			cand.finish = finish
		}
		if u := ch.UsageMetadata; u != nil {
			info = map[string]any{"input_tokens": u.PromptTokenCount, "output_tokens": u.CandidatesTokenCount, "total_tokens": u.TotalTokenCount,
				"PromptTokens": u.PromptTokenCount, "CompletionTokens": u.CandidatesTokenCount, "TotalTokens": u.TotalTokenCount}
		}
	}
	if len(cands) == 0 {
		return nil, errGeminiNoContent
	}
	resp := &llms.ContentResponse{}
	for _, c := range cands {
		gen := map[string]any{}
		for k, v := range info {
			gen[k] = v
		}
		resp.Choices = append(resp.Choices, &llms.ContentChoice{Content: c.text.String(), StopReason: c.finish, GenerationInfo: gen})
	}
	return resp, nil
}

var errGeminiNoContent = errors.New("no content in generation response")

var (
	geminiFinishReasons = []string{"Unspecified", "Stop", "MaxTokens", "Safety", "Recitation", "Other"}
	geminiBlockReasons  = []string{"Unspecified", "Safety", "Other"}
)

// enumName names an enum value of the API, sent as a number or as its
// upper-case name, the way Google's Go client prints it: "FinishReasonStop".
func enumName(prefix string, raw json.RawMessage, names []string) string {
	if len(raw) == 0 || string(raw) == "null" {
		return prefix + names[0]
	}
	var n int
	if json.Unmarshal(raw, &n) == nil {
		if n >= 0 && n < len(names) {
			return prefix + names[n]
		}
		return fmt.Sprintf("%s(%d)", prefix, n)
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	s = strings.TrimPrefix(s, strings.ToUpper(camelToSnake(prefix))+"_")
	var b strings.Builder
	for _, w := range strings.Split(strings.ToLower(s), "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return prefix + b.String()
}

// camelToSnake is "FinishReason" as "finish_reason".
func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return b.String()
}
