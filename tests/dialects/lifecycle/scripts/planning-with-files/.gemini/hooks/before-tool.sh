# forge test fixture: our own reproduction of OthmanAdi/planning-with-files
# .gemini/hooks/before-tool.sh at commit 9e94390e5912b1ff296556505cd999ff84838160 (MIT;
# nothing copied), committed upstream WITHOUT the exec bit, as here: Gemini cannot start it
# (exit 126, "Permission denied"), and reads that as a deny.
cat > /dev/null
echo '{"decision": "allow"}'
