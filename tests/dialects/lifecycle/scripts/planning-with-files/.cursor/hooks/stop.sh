# forge test fixture: our own reproduction of OthmanAdi/planning-with-files
# .cursor/hooks/stop.sh at commit 9e94390e5912b1ff296556505cd999ff84838160 (MIT, Copyright
# (c) 2026 Ahmad Adi; nothing copied). With task_plan.md present it asks for another turn:
#   {"followup_message": "[planning-with-files] Task incomplete (1/2 phases done). ..."}
# (upstream commits it without the exec bit: kept so, and run here through sh).
cat > /dev/null
[ -f task_plan.md ] && printf '%s\n' '{"followup_message": "[planning-with-files] Task incomplete (1/2 phases done). Continue."}'
exit 0
