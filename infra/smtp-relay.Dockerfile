# The SMTP relay's image: the esbuild bundle of functions/smtp-relay/main.ts (npm run build puts it, and
# this file as `Dockerfile`, in dist/functions/smtp-relay/). Nothing else is installed: the bundle holds
# every dependency.
FROM public.ecr.aws/docker/library/node:22-slim
WORKDIR /app
COPY index.js index.js.map THIRD_PARTY_LICENSES.txt ./
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
USER node
EXPOSE 2587
CMD ["node", "index.js"]
