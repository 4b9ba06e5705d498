package gitrepo

import "strings"

// Env is the environment of every git command docreview runs (reviews,
// the Action's fetches, the App's mirrors, example runs): environ without
// the variables that would make git read another repository than the one
// named with -C (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_COMMON_DIR,
// GIT_OBJECT_DIRECTORY, GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_NAMESPACE,
// GIT_QUARANTINE_PATH and the like, which git hooks set), rewrite its
// history or output (replace refs, grafts, shallow files, pathspec magic,
// external diff drivers, attribute sources), inject configuration
// (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its keys and values; the
// files GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM name are the user's own
// configuration, like ~/.gitconfig, and are kept), trace what it sends (GIT_TRACE*, GIT_CURL_VERBOSE) or ask
// for credentials; then GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0 and
// empty askpass programs, so git never prompts and read-only commands never
// take index.lock; then extra, which may set any of them again.
func Env(environ []string, extra ...string) []string {
	env := make([]string, 0, len(environ)+len(extra)+4)
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !droppedGitVar(name) {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
	return append(env, extra...)
}

// droppedGitVar reports the variables [Env] leaves out.
func droppedGitVar(name string) bool {
	switch name {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE",
		"GIT_QUARANTINE_PATH", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
		"GIT_REPLACE_REF_BASE", "GIT_NO_REPLACE_OBJECTS", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE",
		"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
		"GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "GIT_ATTR_SOURCE",
		"GIT_CURL_VERBOSE", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS",
		"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT":
		return true
	case "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM":
		return false
	}
	return strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") ||
		strings.HasPrefix(name, "GIT_TRACE")
}
