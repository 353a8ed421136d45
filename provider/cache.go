package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/score"
)

// cacheVersion changes whenever the key or entry format changes, so old
// entries are never misread.
const cacheVersion = 1

// Cache keeps successful judge verdicts in a directory, one JSON file per
// key, so a re-run with the same prompts and settings does not pay again.
// Errors are never cached. Writes go to a temporary file renamed into place,
// so concurrent runs and goroutines never see half an entry. A Cache is
// safe for concurrent use.
type Cache struct {
	dir    string
	hits   atomic.Int64
	misses atomic.Int64
}

// ErrCache: the judge cache's directory cannot be used.
var ErrCache = errors.New("open judge cache")

// OpenCache creates dir if needed and checks it is a writable directory.
// Its errors wrap ErrCache.
func OpenCache(dir string) (*Cache, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, fmt.Errorf("%w: %w: empty directory", ErrCache, llm.ErrInvalidSettings)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCache, err)
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCache, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return &Cache{dir: dir}, nil
}

// CacheStats are the cache's counters for the run summary.
type CacheStats struct {
	Dir    string `json:"dir"`
	Hits   int64  `json:"hits"`
	Misses int64  `json:"misses"`
}

// Stats returns the hit and miss counts so far.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Dir: c.dir, Hits: c.hits.Load(), Misses: c.misses.Load()}
}

// cacheKeyInput is everything that can change a verdict: provider, model,
// endpoint, the sampling settings and the full prompt. Timeouts and retry
// settings change only whether a verdict arrives, so they are left out.
type cacheKeyInput struct {
	Version     int      `json:"v"`
	Provider    string   `json:"provider"`
	Model       string   `json:"model"`
	BaseURL     string   `json:"base_url"`
	Temperature *float64 `json:"temperature"`
	MaxTokens   int      `json:"max_tokens"`
	JSONMode    bool     `json:"json_mode"`
	System      string   `json:"system"`
	User        string   `json:"user"`
}

// Key is the lowercase hex SHA-256 of the canonical JSON of the key input.
func (c *Cache) Key(s llm.Settings, system, user string) string {
	b, _ := json.Marshal(cacheKeyInput{
		Version: cacheVersion, Provider: s.Provider, Model: s.Model, BaseURL: llm.RedactURL(s.BaseURL),
		Temperature: s.Temperature, MaxTokens: s.MaxTokens, JSONMode: true, System: system, User: user,
	})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

type cacheEntry struct {
	Version int     `json:"v"`
	Score   float64 `json:"score"`
	Reason  string  `json:"reason"`
}

func (c *Cache) path(key string) string { return filepath.Join(c.dir, key+".json") }

// get returns the cached verdict and counts a hit or a miss. An unreadable
// or invalid entry is a miss (and is overwritten by the next put).
func (c *Cache) get(key string) (score.Assessment, bool) {
	b, err := bounds.ReadFile(c.path(key), bounds.DefaultMaxBytes)
	var e cacheEntry
	if err != nil || json.Unmarshal(b, &e) != nil || e.Version != cacheVersion ||
		math.IsNaN(e.Score) || e.Score < 0 || e.Score > 1 || strings.TrimSpace(e.Reason) == "" {
		c.misses.Add(1)
		return score.Assessment{}, false
	}
	c.hits.Add(1)
	return score.Assessment{Score: e.Score, Reason: e.Reason}, true
}

// put stores a successful verdict.
func (c *Cache) put(key string, score float64, reason string) error {
	b, err := json.Marshal(cacheEntry{Version: cacheVersion, Score: score, Reason: reason})
	if err != nil {
		return fmt.Errorf("write judge cache: %w", err)
	}
	if err := atomicfile.Write(c.path(key), b, 0o600); err != nil { // private, like its 0o700 directory
		return fmt.Errorf("write judge cache: %w", err)
	}
	return nil
}
