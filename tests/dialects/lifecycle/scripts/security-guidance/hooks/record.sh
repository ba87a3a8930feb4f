# forge test fixture (ours): stands in for security-guidance's sg-python.sh + Python review,
# which need the Agent SDK and a model. It records which hook ran and answers nothing.
printf '%s\n' "$1" >> "${RECORD_TO:-/dev/null}"
