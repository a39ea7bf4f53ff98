# The script matrix's payload: its mark shows that its code ran; the
# function is the one the %func route calls.
echo "script payload ran" >"$CHECKEXEC_MARK"
checkexec_payload() { :; }
