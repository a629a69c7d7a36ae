// The preview of what the reader types, asked of the server once they pause (debounced), the
// last answer kept on screen while the next is computed.
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { templatePreviewQuery, type PreviewRequest } from '../../api/applications';

export const PREVIEW_DEBOUNCE_MS = 300;

export function useTemplatePreview(appid: string, request: PreviewRequest) {
  const api = useApi();
  const [debounced] = useDebouncedValue(request, PREVIEW_DEBOUNCE_MS);
  const empty = request.text.trim() === '' || request.to.trim() === '';
  const query = useQuery({
    ...templatePreviewQuery(api, appid, debounced),
    enabled: debounced.text.trim() !== '' && debounced.to.trim() !== '',
    placeholderData: keepPreviousData,
  });
  const typing = debounced.text !== request.text || debounced.lang !== request.lang || debounced.to !== request.to;
  return {
    empty,
    preview: query.data,
    error: query.isError && !query.isPlaceholderData ? query.error : null,
    updating: !empty && (typing || query.isFetching),
  };
}
