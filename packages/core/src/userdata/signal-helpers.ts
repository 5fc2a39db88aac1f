/**
 * The boot's shell functions that tell CloudFormation its outcome on EC2: the Auto Scaling group's creation policy and
 * rolling update wait for one signal per instance (`signalTo`, `signalWhenHealthy`). `fw_on_exit` in the preamble
 * signals FAILURE once `FW_SIGNAL` names the resource.
 */

/**
 * Tells CloudFormation the boot's outcome, SUCCESS or FAILURE, for the resource in FW_SIGNAL (the instance's id as the
 * signal's unique id): the group's creation and rolling update wait for it. An instance started outside them (an
 * instance refresh, a replaced unhealthy instance) has nobody waiting and CloudFormation refuses the signal: logged
 * with aws' own message (its standard error; the call prints nothing else), and the boot goes on.
 */
const SIGNAL = `fw_signal() {
  local me
  me=$(fw_imds instance-id)
  if aws cloudformation signal-resource --region "\${FW_SIGNAL[0]}" --stack-name "\${FW_SIGNAL[1]}" --logical-resource-id "\${FW_SIGNAL[2]}" --unique-id "$me" --status "$1" > /dev/null 2>> "$FW_LOG"; then
    fw_log "signalled $1 to \${FW_SIGNAL[2]}"
  else
    fw_log "CloudFormation took no $1 signal for \${FW_SIGNAL[2]} (no creation or update waits for this instance)"
  fi
}
`;

/**
 * Waits until the application answers its health check as the load balancer asks it (the instance's private address,
 * the port and path, a status from LOW to HIGH) or SECONDS pass, then fails naming the last status (000: no answer).
 */
const HEALTHY = `fw_healthy() {
  local port=$1 path=$2 low=$3 high=$4 seconds=$5 address code=000
  address=$(fw_imds local-ipv4)
  for _ in $(seq 1 $(( (seconds + 4) / 5 ))); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$address:$port$path" || true)
    code=\${code:-000}
    if [ "$code" -ge "$low" ] && [ "$code" -le "$high" ]; then
      fw_log "health check $path on port $port answered $code"
      return 0
    fi
    sleep 5
  done
  fw_log "health check $path on port $port did not answer $low-$high within \${seconds}s (last: $code)"
  return 1
}
`;

/** The helpers above by name, each with those it calls (`fw_imds` is the preamble file's). */
export const SIGNAL_HELPERS: Record<string, { readonly needs: string[]; readonly body: string }> = {
  fw_signal: { needs: ['fw_imds'], body: SIGNAL },
  fw_healthy: { needs: ['fw_imds'], body: HEALTHY },
};
