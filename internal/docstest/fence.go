// Package docstest finds the fenced code blocks of the project's Markdown
// documents and the markers that say how the docs test treats each one.
package docstest

import (
	"fmt"
	"strconv"
	"strings"
)

// Block is one fenced code block of a Markdown document.
type Block struct {
	// Line is the 1-based line of the opening fence.
	Line int
	// Lang is the first word of the fence's info string ("sh", "go", …).
	Lang string
	// Body is the text between the fences, ending in a newline.
	Body string
	// Marker holds the directives of the marker comment right above the
	// fence, if any.
	Marker Marker
}

// Marker is the parsed `<!-- docstest: … -->` comment above a fence.
// Directives are separated by ";"; skip takes the rest of the comment as
// its reason, so it comes last:
//
//	skip REASON   the block is not run; the test lists it with the reason
//	exit N        the sh block must exit with status N (default 0)
//	judge         the sh block runs with the scripted local judge configured
//	file PATH     the block's text is also written to PATH in the working copy
type Marker struct {
	Skip  string
	Exit  int
	Judge bool
	File  string
}

// markerPrefix opens a marker comment.
const markerPrefix = "<!-- docstest:"

// Parse returns the fenced blocks of a Markdown document in order. A fence
// is a line starting with ``` or ~~~ (at most three spaces of indent); it
// closes at the next line starting with the same fence characters. An
// unclosed fence, a fence without a language and a malformed marker are
// errors naming the line.
func Parse(name, text string) ([]Block, error) {
	lines := strings.Split(text, "\n")
	var blocks []Block
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimLeft(lines[i], " ")
		if len(lines[i])-len(trimmed) > 3 {
			continue
		}
		fence := fenceOf(trimmed)
		if fence == "" {
			continue
		}
		info := strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1]))
		lang, _, _ := strings.Cut(info, " ")
		if lang == "" {
			return nil, fmt.Errorf("%s:%d: fenced block without a language (use text for output)", name, i+1)
		}
		b := Block{Line: i + 1, Lang: lang}
		if i > 0 && strings.HasPrefix(strings.TrimSpace(lines[i-1]), markerPrefix) {
			m, err := parseMarker(strings.TrimSpace(lines[i-1]))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, i, err)
			}
			b.Marker = m
		}
		var body strings.Builder
		closed := false
		for i++; i < len(lines); i++ {
			if t := strings.TrimLeft(lines[i], " "); strings.HasPrefix(t, fence) && strings.TrimSpace(strings.TrimLeft(t, fence[:1])) == "" {
				closed = true
				break
			}
			body.WriteString(lines[i])
			body.WriteString("\n")
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: fenced block is never closed", name, b.Line)
		}
		b.Body = body.String()
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// fenceOf returns the run of three or more backticks or tildes opening
// line, or "".
func fenceOf(line string) string {
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(line) && line[n:n+1] == c {
			n++
		}
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// parseMarker reads `<!-- docstest: DIRECTIVE; DIRECTIVE -->`.
func parseMarker(line string) (Marker, error) {
	var m Marker
	rest, ok := strings.CutSuffix(strings.TrimPrefix(line, markerPrefix), "-->")
	if !ok {
		return m, fmt.Errorf("marker %q does not end with -->", line)
	}
	for rest = strings.TrimSpace(rest); rest != ""; {
		d, next, _ := strings.Cut(rest, ";")
		word, arg, _ := strings.Cut(strings.TrimSpace(d), " ")
		arg = strings.TrimSpace(arg)
		rest = strings.TrimSpace(next)
		switch word {
		case "skip":
			reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d+";"+next), "skip"))
			reason = strings.TrimSuffix(reason, ";")
			if len(reason) < 10 {
				return m, fmt.Errorf("marker %q: skip needs a reason of at least a few words", line)
			}
			m.Skip, rest = reason, ""
		case "exit":
			n, err := strconv.Atoi(arg)
			if err != nil || n < 0 || n > 255 {
				return m, fmt.Errorf("marker %q: exit needs a status 0..255, got %q", line, arg)
			}
			m.Exit = n
		case "judge":
			m.Judge = true
		case "file":
			if arg == "" || strings.HasPrefix(arg, "/") || strings.Contains(arg, "..") {
				return m, fmt.Errorf("marker %q: file needs a relative path inside the working copy, got %q", line, arg)
			}
			m.File = arg
		default:
			return m, fmt.Errorf("marker %q: unknown directive %q (want skip, exit, judge or file)", line, word)
		}
	}
	return m, nil
}
