package script

// OptionName is a board option's name in words (「女巫自救」): the label of
// the option on the console's new-game form. An unknown key reads
// 「未知選項」.
func OptionName(key string) string {
	w, ok := optionWords[key]
	if !ok {
		return "未知選項"
	}
	return w.name
}

// OptionValueText is one value of a board option in words (「僅首夜」):
// the choices of the option on the console's new-game form. An unknown
// value reads 「未知值」.
func OptionValueText(key, value string) string {
	w, ok := optionWords[key]
	if !ok {
		return "未知值"
	}
	return w.value(value)
}

// OptionBool reports whether the option is an on/off one (its values:
// true and false).
func OptionBool(key string) bool { return optionWords[key].kind == optBool }
