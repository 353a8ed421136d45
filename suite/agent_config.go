package suite

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/llm"
)

// Agent types of the suite file's "agent.type".
const (
	AgentCommand = "command"
	AgentWorker  = "worker"
	AgentHTTP    = "http"
	AgentLLM     = "llm"
)

// DefaultAgentTimeout bounds one agent call when neither the suite nor the
// command line sets a timeout.
const DefaultAgentTimeout = 5 * time.Minute

// AgentConfig is the suite's "agent" section.
type AgentConfig struct {
	// Name identifies the agent in the history (the runs' agent column).
	Name string `json:"name"`
	// Type is command, worker, http or llm. When omitted it is command if
	// Command is set, http if URL is set, llm if LLM is set.
	Type string `json:"type,omitempty"`
	// Command is the program and its arguments (command and worker types).
	Command []string `json:"command,omitempty"`
	// Dir is the working directory, relative to the suite file (default: the
	// suite file's directory).
	Dir string `json:"dir,omitempty"`
	// Env names environment variables passed through to command and worker
	// agents, on top of a minimal base (PATH, HOME, TMPDIR, LANG, LC_ALL, TZ).
	// Values are read from evalrun's environment and never persisted.
	Env []string `json:"env,omitempty"`
	// URL is the http agent's endpoint (POST).
	URL string `json:"url,omitempty"`
	// Headers are sent with every http agent request.
	Headers map[string]string `json:"headers,omitempty"`
	// HeaderEnv maps a header name to an environment variable holding its
	// value (for tokens: secrets come from the environment only).
	HeaderEnv map[string]string `json:"header_env,omitempty"`
	// Timeout bounds one agent call (default DefaultAgentTimeout).
	Timeout Duration `json:"timeout,omitempty"`
	// LLM configures the llm agent type.
	LLM *ModelConfig `json:"llm,omitempty"`
	// MaxAnswerBytes caps what is kept (and scored) of each answer of a
	// command, worker or http agent (default DefaultMaxAnswerBytes; see answerBuffer).
	MaxAnswerBytes int `json:"max_answer_bytes,omitempty"`
	// Reply is how a command or http agent's reply is read: ReplyAuto
	// (default), ReplyJSON or ReplyText.
	Reply string `json:"reply,omitempty"`
	// Protocol is how an http agent is spoken to: ProtocolEvalrun
	// (default), ProtocolOpenAIChat, ProtocolOpenAIResponses or
	// ProtocolAISDKUI.
	Protocol string `json:"protocol,omitempty"`
}

// Protocols of the suite file's "agent.protocol" (http agents).
const (
	// ProtocolEvalrun posts the Question JSON and reads a Response.
	ProtocolEvalrun = "evalrun"
	// ProtocolOpenAIChat speaks OpenAI chat completions.
	ProtocolOpenAIChat = "openai_chat"
	// ProtocolOpenAIResponses speaks the OpenAI Responses API.
	ProtocolOpenAIResponses = "openai_responses"
	// ProtocolAISDKUI speaks the AI SDK's UI message stream (POST /api/chat).
	ProtocolAISDKUI = "ai_sdk_ui"
)

// Reply modes of the suite file's "agent.reply".
const (
	// ReplyAuto reads a reply starting with "{" as a Response object, a
	// reply whose last line is one as that Response (the text before it is
	// kept as a note), anything else as plain text (noted when it holds a
	// JSON object).
	ReplyAuto = "auto"
	// ReplyJSON requires the whole reply to be one Response object: text
	// is a case error.
	ReplyJSON = "json"
	// ReplyText reads every reply as plain text, even one that is JSON.
	ReplyText = "text"
)

var agentKeys = []string{"name", "type", "command", "dir", "env", "url", "headers", "header_env", "timeout", "llm", "max_answer_bytes", "reply", "protocol"}

var modelKeys = []string{"provider", "model", "base_url", "temperature", "max_tokens", "timeout", "system_prompt"}

// parseAgent reads the agent section; dir resolves relative paths.
func parseAgent(p Problems, path string, raw json.RawMessage, dir string) AgentConfig {
	var cfg AgentConfig
	obj := p.object(path, raw, agentKeys...)
	if obj == nil {
		return cfg
	}
	before := len(*p.List)
	if n, ok := obj["name"]; ok {
		cfg.Name, _ = p.nonEmpty(child(path, "name"), n)
	} else {
		p.add(child(path, "name"), "missing: want the agent's name (the history's agent column)")
	}
	if t, ok := obj["type"]; ok {
		cfg.Type = p.oneOf(child(path, "type"), t, AgentCommand, AgentWorker, AgentHTTP, AgentLLM)
	}
	if c, ok := obj["command"]; ok {
		if cfg.Command, ok = p.strings(child(path, "command"), c); ok && len(cfg.Command) == 0 {
			p.add(child(path, "command"), "want at least the program to run")
		}
	}
	if d, ok := obj["dir"]; ok {
		cfg.Dir, _ = p.nonEmpty(child(path, "dir"), d)
	}
	if e, ok := obj["env"]; ok {
		cfg.Env, _ = p.strings(child(path, "env"), e)
		for i, name := range cfg.Env {
			if name == "" || strings.ContainsAny(name, "=\x00") {
				p.add(Index(child(path, "env"), i), "want an environment variable name, got %q", name)
			}
		}
	}
	if u, ok := obj["url"]; ok {
		if cfg.URL, ok = p.nonEmpty(child(path, "url"), u); ok &&
			!strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
			p.add(child(path, "url"), "want an http:// or https:// URL, got %q", cfg.URL)
		}
	}
	for _, key := range []string{"headers", "header_env"} {
		if h, ok := obj[key]; ok {
			m := map[string]string{}
			if h[0] != '{' || json.Unmarshal(h, &m) != nil {
				p.add(child(path, key), "want an object of strings, got %s", describe(h))
			}
			if key == "headers" {
				cfg.Headers = m
			} else {
				cfg.HeaderEnv = m
			}
		}
	}
	if t, ok := obj["timeout"]; ok {
		if err := cfg.Timeout.UnmarshalJSON(t); err != nil {
			p.add(child(path, "timeout"), "%v", err)
		}
	}
	if l, ok := obj["llm"]; ok {
		cfg.LLM = parseModel(p, child(path, "llm"), l)
	}
	if m, ok := obj["max_answer_bytes"]; ok {
		if err := json.Unmarshal(m, &cfg.MaxAnswerBytes); err != nil || cfg.MaxAnswerBytes < 1 {
			p.add(child(path, "max_answer_bytes"), "want a whole number of bytes >= 1, got %s", describe(m))
		}
	}
	if r, ok := obj["reply"]; ok {
		cfg.Reply = p.oneOf(child(path, "reply"), r, ReplyAuto, ReplyJSON, ReplyText)
	}
	if r, ok := obj["protocol"]; ok {
		cfg.Protocol = p.oneOf(child(path, "protocol"), r, ProtocolEvalrun, ProtocolOpenAIChat, ProtocolOpenAIResponses, ProtocolAISDKUI)
	}
	if len(*p.List) > before {
		return cfg
	}
	if cfg.Type == "" {
		switch {
		case cfg.Command != nil:
			cfg.Type = AgentCommand
		case cfg.URL != "":
			cfg.Type = AgentHTTP
		case cfg.LLM != nil:
			cfg.Type = AgentLLM
		}
	}
	switch cfg.Type {
	case AgentCommand, AgentWorker:
		if cfg.Command == nil {
			p.add(child(path, "command"), "missing: a %s agent needs a command", cfg.Type)
		}
	case AgentHTTP:
		if cfg.URL == "" {
			p.add(child(path, "url"), "missing: an http agent needs a url")
		}
	case AgentLLM:
		if cfg.LLM == nil {
			p.add(child(path, "llm"), "missing: an llm agent needs an llm section (provider, model)")
		}
	}
	if cfg.Reply != "" && cfg.Reply != ReplyJSON && (cfg.Type == AgentWorker || cfg.Type == AgentLLM) {
		p.add(child(path, "reply"), "a %s agent's replies are always read as Response JSON objects; reply applies to command and http agents", cfg.Type)
	}
	if cfg.Protocol != "" && cfg.Type != AgentHTTP {
		p.add(child(path, "protocol"), "protocol applies to http agents, not to a %s agent", cfg.Type)
	}
	if cfg.Dir != "" && !filepath.IsAbs(cfg.Dir) {
		cfg.Dir = filepath.Join(dir, cfg.Dir)
	} else if cfg.Dir == "" {
		cfg.Dir = dir
	}
	return cfg
}

// parseModel reads a judge or llm section.
func parseModel(p Problems, path string, raw json.RawMessage) *ModelConfig {
	if p.object(path, raw, modelKeys...) == nil {
		return nil
	}
	var m ModelConfig
	if err := json.Unmarshal(raw, &m); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			p.add(child(path, te.Field), "want %s, got %s", te.Type, te.Value)
		} else {
			p.add(path, "%v", err)
		}
		return nil
	}
	if strings.TrimSpace(m.Provider) == "" {
		p.add(child(path, "provider"), "missing: want %s", llm.ProviderNames)
	}
	if strings.TrimSpace(m.Model) == "" {
		p.add(child(path, "model"), "missing: want the model's name")
	}
	return &m
}

// CheckListenAddress accepts a host:port to listen on, such as
// 127.0.0.1:4318 (the host may be empty for every interface).
func CheckListenAddress(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if n, perr := strconv.Atoi(port); perr != nil || n < 1 || n > 65535 {
			err = errors.New("bad port")
		}
	}
	if err != nil {
		return fmt.Errorf("want host:port such as 127.0.0.1:4318, got %q", addr)
	}
	return nil
}
