#!/usr/bin/env bash
# Deploys the CDK app (infra/) to a running LocalStack: build the Lambda bundles, then
# `cdklocal bootstrap` and `cdklocal deploy`. Extra arguments go to `cdklocal deploy`
# (e.g. `npm run deploy:localstack -- -c sandboxDomain=sandbox.example.test`).
#
# Needs Docker, LocalStack (localstack/docker-compose.yml) and cdklocal (aws-cdk-local). For a
# machine without Docker, use the embedded local cloud instead: `npm start`.
#
# Environment: LOCALSTACK_ENDPOINT (default http://localhost:4566), AWS_REGION (default us-east-1).
set -euo pipefail

cd "$(dirname "$0")/.."

CDKLOCAL_VERSION=3.0.4
ENDPOINT="${LOCALSTACK_ENDPOINT:-http://localhost:4566}"
COMPOSE_FILE=localstack/docker-compose.yml

die() {
  printf 'deploy:localstack: %s\n' "$1" >&2
  shift
  for line in "$@"; do printf '  %s\n' "$line" >&2; done
  exit 1
}

# 1. Docker
command -v docker >/dev/null 2>&1 ||
  die "Docker is not installed; the LocalStack path needs Docker." \
    "Without Docker, run the service on the embedded local cloud: npm start"
docker info >/dev/null 2>&1 ||
  die "Docker is installed but its daemon is not reachable (is it running? may this user use it?)."

# 2. LocalStack
health="$(node -e '
  fetch(process.argv[1] + "/_localstack/health", { signal: AbortSignal.timeout(3000) })
    .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
    .then((t) => process.stdout.write(t), () => process.exit(1));
' "$ENDPOINT")" ||
  die "LocalStack is not reachable at $ENDPOINT." \
    "Start it: docker compose -f $COMPOSE_FILE up -d" \
    "(or set LOCALSTACK_ENDPOINT to where it runs)"
node -e '
  const services = JSON.parse(process.argv[1]).services ?? {};
  const missing = ["cloudformation", "lambda", "dynamodb", "sqs", "sns", "s3", "iam", "apigatewayv2", "scheduler", "ses"]
    .filter((s) => !["available", "running"].includes(services[s]));
  if (missing.length) console.warn(`deploy:localstack: warning: this LocalStack does not offer ${missing.join(", ")}; resources of those services will be skipped or fail (see docs/deploy.md).`);
' "$health"

# 3. cdklocal: a project-local install first, then a global one. Either way it runs the project's
# aws-cdk CLI (2.1148.1; the 3.x CLI cannot read this aws-cdk-lib's output).
if [ -x node_modules/.bin/cdklocal ]; then
  CDKLOCAL=node_modules/.bin/cdklocal
elif command -v cdklocal >/dev/null 2>&1; then
  CDKLOCAL=cdklocal
else
  die "cdklocal (aws-cdk-local) is not installed." \
    "It is a devDependency: run npm ci first, or install it:  npm install --no-save aws-cdk-local@$CDKLOCAL_VERSION" \
    "or globally:                               npm install -g aws-cdk-local@$CDKLOCAL_VERSION"
fi
export NODE_PATH="$PWD/node_modules${NODE_PATH:+:$NODE_PATH}"

export CDK_DISABLE_CLI_TELEMETRY=true
export AWS_REGION="${AWS_REGION:-us-east-1}"
export AWS_DEFAULT_REGION="$AWS_REGION"
# cdklocal drops AWS_* variables unless allow-listed (so nothing reaches real AWS by mistake).
export AWS_ENVAR_ALLOWLIST="AWS_REGION,AWS_DEFAULT_REGION"
if [ -n "${LOCALSTACK_ENDPOINT:-}" ]; then
  export AWS_ENDPOINT_URL="$ENDPOINT"
  # cdklocal recognises S3 requests by a `.s3.` host.
  export AWS_ENDPOINT_URL_S3="${AWS_ENDPOINT_URL_S3:-$(node -e 'const u = new URL(process.argv[1]); u.hostname = "s3." + (u.hostname === "localhost" || u.hostname === "127.0.0.1" ? "localhost.localstack.cloud" : u.hostname); process.stdout.write(u.origin)' "$ENDPOINT")}"
fi

echo "==> Building the Lambda bundles"
npm run --silent build

echo "==> Bootstrapping the CDK environment on LocalStack ($ENDPOINT, $AWS_REGION)"
"$CDKLOCAL" bootstrap --no-notices

echo "==> Deploying"
"$CDKLOCAL" deploy --require-approval never --no-notices --outputs-file cdk.out/localstack-outputs.json "$@"

echo "==> Done. Stack outputs (API URL, table, queue URLs): cdk.out/localstack-outputs.json"
