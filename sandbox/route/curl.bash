# Source this into the bash session that runs the docs' curl samples: URLs on the public sandbox
# API origin (ACME_SANDBOX_API_ORIGIN, default https://sandbox.api.example.com) go to the local
# sandbox (ACME_SANDBOX_ORIGIN, e.g. http://127.0.0.1:4010) instead, path and query kept. The
# samples run unchanged. With ACME_SANDBOX_ORIGIN unset, curl is left as it is.
curl() {
  local api="${ACME_SANDBOX_API_ORIGIN:-https://sandbox.api.example.com}"
  local target="${ACME_SANDBOX_ORIGIN:-}"
  target="${target%/}"
  local arg
  local args=()
  for arg in "$@"; do
    # Exactly this origin: followed by nothing, a path, a query or a fragment.
    if [[ -n "$target" && ( "$arg" == "$api" || "$arg" == "$api"[/?#]* ) ]]; then
      arg="$target${arg#"$api"}"
    fi
    args+=("$arg")
  done
  command curl "${args[@]}"
}
# Samples that start another bash (bash -c, xargs bash …) get it too.
export -f curl
