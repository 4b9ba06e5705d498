package judge

// PromptHash exposes the prompts' content hash to the tests.
func PromptHash() string {
	p, err := loadPrompts()
	if err != nil {
		return err.Error()
	}
	return p.hash
}
