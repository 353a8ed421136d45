package bounds

import (
	"bytes"
	"fmt"
)

// CheckYAML is CheckJSON for YAML. YAML nests by indentation, by "- "
// sequence entries and by flow collections ([…], {…}); the scan counts all
// three per line without parsing, so it is conservative (a deep enough
// document is always refused) and linear in the input. Its Error names
// the line ("line 12") where the limit was passed.
func (l Limits) CheckYAML(data []byte) error {
	if err := l.size(len(data)); err != nil {
		return err
	}
	var indents []int // block levels open: their indentation
	flow := 0         // open flow brackets
	for n, line := range bytes.Split(data, []byte("\n")) {
		depth, err := l.yamlLine(line, &indents, &flow)
		if err != nil {
			return err
		}
		if l.MaxDepth > 0 && depth > l.MaxDepth {
			return l.tooDeep(fmt.Sprintf("line %d", n+1))
		}
	}
	return nil
}

// yamlLine updates the open levels with one line and returns the depth
// reached on it.
func (l Limits) yamlLine(line []byte, indents *[]int, flow *int) (int, error) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	rest := bytes.TrimRight(line[i:], " \t\r")
	if *flow == 0 {
		if len(rest) == 0 || rest[0] == '#' {
			return len(*indents), nil
		}
		for len(*indents) > 0 && (*indents)[len(*indents)-1] >= i {
			*indents = (*indents)[:len(*indents)-1]
		}
		*indents = append(*indents, i)
		// "- - - x": every dash opens one more level on the same line
		for len(rest) >= 2 && rest[0] == '-' && rest[1] == ' ' {
			i += 2
			rest = bytes.TrimLeft(rest[2:], " ")
			*indents = append(*indents, i)
			if l.MaxDepth > 0 && len(*indents) > l.MaxDepth {
				return len(*indents), nil
			}
		}
	}
	deepest := len(*indents) + *flow
	quote := byte(0)
	for _, c := range rest {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && *flow == 0:
			return deepest, nil
		case c == '[' || c == '{':
			*flow++
			deepest = max(deepest, len(*indents)+*flow)
		case c == ']' || c == '}':
			if *flow > 0 {
				*flow--
			}
		}
	}
	return deepest, nil
}
